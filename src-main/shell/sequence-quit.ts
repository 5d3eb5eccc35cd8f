/**
 * Quitting while a sequence runs asks first. Only this app's own Core runs sequences
 * that a quit stops; the Core then ends each run after its current step's request and records where it
 * stopped (sequences/sequences.ts), which the next start shows.
 */
import type { EventSink, Handlers, SequenceRun } from '../../src-preload/contract';

/** The runs going on, kept from `sequence/progress` so a quit knows at once whether to ask. */
export function watchRunningSequences(core: { subscribe(sink: EventSink): () => void }): () => SequenceRun[] {
  const running = new Map<string, SequenceRun>();
  core.subscribe((name, payload) => {
    if (name !== 'sequence/progress') return;
    const run = payload as SequenceRun;
    if (run.status === 'running') running.set(run.runId, run);
    else running.delete(run.runId);
  });
  return () => [...running.values()];
}

/** The part of Electron's `dialog.showMessageBox` this needs. */
export interface MessageBox {
  showMessageBox(options: {
    type: 'question';
    title: string;
    message: string;
    detail: string;
    buttons: string[];
    defaultId: number;
    cancelId: number;
    noLink: boolean;
  }): Promise<{ response: number }>;
}

/** True when quitting may go on: nothing running, or the person chose to stop and quit. */
export async function mayQuit(
  handlers: Pick<Handlers, 'sequences/runs'>,
  dialog: MessageBox,
): Promise<boolean> {
  const running = (await handlers['sequences/runs']({}).catch(() => [])).filter(
    (r) => r.status === 'running',
  );
  if (running.length === 0) return true;
  const words = running.map((r) => `'${r.name}' (step ${Math.max(1, r.current)} of ${r.steps.length})`);
  const { response } = await dialog.showMessageBox({
    type: 'question',
    title: 'A sequence is running',
    message:
      running.length === 1
        ? `Sequence ${words[0]} is still running. Quit anyway?`
        : `Sequences ${words.join(', ')} are still running. Quit anyway?`,
    detail:
      'Quitting stops after the current step: the steps done stay switched, the rest are not run, and the next start shows where it stopped.',
    buttons: ['Keep running', 'Stop and quit'],
    defaultId: 0,
    cancelId: 0,
    noLink: true,
  });
  return response === 1;
}
