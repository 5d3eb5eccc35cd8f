import type { Result, SequenceRun, SequenceStep } from '../../../src-preload/contract';
import { settle, type Backend } from '../backend';

/**
 * The window's view of sequence runs: every run it has heard of, kept current by
 * `sequence/progress`, and the runs that stopped short in an earlier Plugboard (shown once, dismissable).
 */
export class SequencesState {
  runs = $state.raw<Record<string, SequenceRun>>({});
  readonly #api: Backend;

  constructor(api: Backend) {
    this.#api = api;
  }

  start(): () => void {
    const off = this.#api.on('sequence/progress', (run) => (this.runs = { ...this.runs, [run.runId]: run }));
    void settle(this.#api.sequences.runs({})).then((result) => {
      if (result.ok) for (const run of result.value) this.runs = { ...this.runs, [run.runId]: run };
    });
    return off;
  }

  /** The newest run of a group (running or ended). */
  latestOf(groupId: string): SequenceRun | null {
    const mine = Object.values(this.runs).filter((r) => r.groupId === groupId);
    return mine.sort((a, b) => b.startedAt - a.startedAt)[0] ?? null;
  }

  /** Runs an earlier Plugboard left stopped short (killed, or stopped when it quit). */
  get earlier(): SequenceRun[] {
    return Object.values(this.runs).filter((r) => r.status === 'killed' || r.status === 'stopped');
  }

  run(id: string, action: 'on' | 'off', confirmCritical: boolean): Promise<Result<{ runId: string }>> {
    return settle(this.#api.sequences.run({ id, action, confirmCritical }));
  }

  abort(runId: string): Promise<Result<SequenceRun>> {
    return settle(this.#api.sequences.abort({ runId }));
  }

  async dismiss(runId: string): Promise<Result<null>> {
    const result = await settle(this.#api.sequences.dismiss({ runId }));
    if (result.ok) {
      const next = { ...this.runs };
      delete next[runId];
      this.runs = next;
    }
    return result;
  }

  save(input: { id?: string; name: string; steps: SequenceStep[] }) {
    return settle(this.#api.sequences.save(input));
  }
}
