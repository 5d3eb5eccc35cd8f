/**
 * The Core's sequence runs: starting one (refused whole, before anything switches, by the switch rules:
 * a step reserved by someone else, or a critical outlet that would go off unconfirmed), Abort, the
 * runs a person should see, and a stop that lets the current step's request finish and records where
 * the run stopped. Every change is pushed (`sequence/progress`) and written to the config folder, so the
 * next start can say where a killed run stopped.
 */
import { randomBytes } from 'node:crypto';
import type { Actor, SequenceRun } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import { runSequence, type RunControl, type SequenceCtx } from './step-runner';
import { permitSwitches } from '../actions/switch-rules';
import type { ControllerRegistry } from '../saved/registry';
import { hostname } from 'node:os';
import { processAlive, SequenceFile, type RunKeeper } from './sequence-file';
import { clockWords } from './sequence-words';
import { markInterrupted, takenOverWords } from './sequence-interrupted';

type Deps = SequenceCtx & {
  registry: ControllerRegistry;
  dataDir: string | null;
  /** The lab store's runs, when the Core has a lab store (else files in the config folder). */
  runs?: RunKeeper | null;
  /** Resolves once the saved controllers have sessions. */
  started: () => Promise<void>;
};

interface Live {
  run: SequenceRun;
  control: RunControl;
  done: Promise<void>;
}

/** Ended runs of this process kept for the window until dismissed (the newest). */
const KEEP_ENDED = 20;

export class Sequences {
  readonly #deps: Deps;
  readonly #file: RunKeeper;
  readonly #live = new Map<string, Live>();
  /** Runs that stopped short in an earlier Plugboard (killed, or stopped when it quit). */
  readonly #earlier: SequenceRun[];
  /** Runs this start found killed, not yet reported (`interrupted` hands them over once). */
  #found: SequenceRun[] = [];

  constructor(deps: Deps) {
    this.#deps = deps;
    this.#file = deps.runs ?? new SequenceFile(deps.dataDir, deps.log);
    this.#earlier = this.#loadEarlier();
  }

  /** How many runs are going on (the shells ask before quitting). */
  get running(): number {
    return [...this.#live.values()].filter((l) => l.run.status === 'running').length;
  }

  async start(
    groupId: string,
    action: 'on' | 'off',
    actor: Actor,
    confirmCritical: boolean,
  ): Promise<string> {
    const d = this.#deps;
    const group = d.registry.getGroupOrThrow(groupId);
    if (group.kind !== 'sequence' || !group.steps)
      throw new PlugboardError('BAD_INPUT', `Group "${group.name}" is not a sequence.`, undefined, {
        action: 'Run it with groups/run, or make it a sequence in the group editor.',
      });
    await d.started();
    const busy = [...this.#live.values()].find(
      (l) => l.run.groupId === groupId && l.run.status === 'running',
    );
    if (busy)
      throw new PlugboardError('BAD_INPUT', `Sequence '${group.name}' is already running.`, undefined, {
        action: 'Wait for it to end, or abort it first.',
      });
    const ordered = action === 'on' ? group.steps : [...group.steps].reverse();
    // The switch rules for every step before anything goes: refused whole, nothing half applied.
    const parts = await Promise.all(
      ordered.map(async (step) => {
        const session = await d.sessions.open(step.controllerId).catch(() => undefined);
        return session
          ? [{ session, outlets: step.outlets, losing: action === 'off' ? step.outlets : [] }]
          : [];
      }),
    );
    await permitSwitches(actor, parts.flat(), confirmCritical);
    const runId = `s${randomBytes(6).toString('hex')}`;
    const run: SequenceRun = {
      runId,
      groupId,
      name: group.name,
      action,
      who: actor.who,
      door: actor.door,
      startedAt: d.clock.now(),
      endedAt: null,
      status: 'running',
      steps: ordered.map((s) => ({
        ...s,
        outlets: [...s.outlets],
        controllerName: d.registry.get(s.controllerId)?.name ?? 'a removed controller',
        status: 'waiting',
        error: null,
      })),
      current: 0,
      waitingUntil: null,
      message: null,
      timeline: [],
    };
    const control: RunControl = { actor, confirmCritical, ending: null, wake: null };
    const changed = () => this.#changed(run);
    const done = runSequence(d, run, control, changed)
      .catch((error: unknown) => {
        d.log(`sequence ${run.name} hit an internal error`, error);
        run.status = 'failed';
        run.endedAt = d.clock.now();
        run.message = `Sequence '${run.name}' stopped at step ${run.current} of ${run.steps.length}: Plugboard hit an internal error (details are in the log).`;
        changed();
      })
      .finally(() => this.#ended(run));
    this.#live.set(runId, { run, control, done });
    this.#changed(run);
    // Answered once the run is in the store: a service killed after answering leaves it to be found.
    await this.#file.settled();
    return runId;
  }

  /** Stop before the next step; answers once the run has ended. */
  async abort(runId: string): Promise<SequenceRun> {
    const live = this.#live.get(runId);
    if (!live) {
      const earlier = this.#earlier.find((r) => r.runId === runId);
      if (earlier) return earlier;
      throw new PlugboardError('NOT_FOUND', 'That sequence run is not known (it may have been dismissed).');
    }
    if (live.run.status === 'running') {
      live.control.ending ??= 'aborted';
      live.control.wake?.();
      await live.done;
    }
    return structuredClone(live.run);
  }

  list(): SequenceRun[] {
    return [...this.#earlier, ...[...this.#live.values()].map((l) => l.run)].map((r) => structuredClone(r));
  }

  dismiss(runId: string): void {
    const live = this.#live.get(runId);
    if (live?.run.status === 'running')
      throw new PlugboardError('BAD_INPUT', `Sequence '${live.run.name}' is still running.`, undefined, {
        action: 'Abort it first.',
      });
    const at = this.#earlier.findIndex((r) => r.runId === runId);
    if (!live && at < 0) throw new PlugboardError('NOT_FOUND', 'That sequence run is not known.');
    if (at >= 0) this.#earlier.splice(at, 1);
    this.#live.delete(runId);
    this.#file.remove(runId);
  }

  /** Quit/stop: every run ends after its current step's request, recorded as stopped. */
  async stopAll(): Promise<void> {
    const running = [...this.#live.values()].filter((l) => l.run.status === 'running');
    for (const live of running) {
      live.control.ending ??= 'stopped';
      live.control.wake?.();
    }
    await Promise.all(running.map((l) => l.done));
  }

  /**
   * The runs a process that can no longer finish them left "running", marked where they stopped and
   * handed over once, to be reported: those this start found killed on this machine, and with
   * `takingOver` (this service begins to lead the lab) every run in the store still "running" that this
   * process does not run, stopped by `takingOver.self` now. None is continued.
   */
  async interrupted(takingOver: { self: string } | null): Promise<SequenceRun[]> {
    const found = this.#found;
    this.#found = [];
    if (!takingOver) return found;
    const now = this.#deps.clock.now();
    for (const stored of await this.#file.running()) {
      const { run } = stored;
      if (this.#live.has(run.runId)) continue;
      markInterrupted(
        run,
        'stopped',
        now,
        takenOverWords(takingOver.self, now, stored.updatedAt, stored.host),
      );
      this.#earlier.push(run);
      this.#changed(run);
      found.push(structuredClone(run));
    }
    return found;
  }

  #changed(run: SequenceRun): void {
    const copy = structuredClone(run);
    this.#file.write(copy, this.#deps.clock.now());
    this.#deps.events.emit('sequence/progress', copy);
  }

  #ended(run: SequenceRun): void {
    // A stopped run is kept on disk: the next start shows where it stopped. The others were seen live.
    if (run.status !== 'stopped') this.#file.remove(run.runId);
    // A run that did everything was seen live; only runs that stopped short stay listed until dismissed.
    if (run.status === 'done') this.#live.delete(run.runId);
    const ended = [...this.#live.values()].filter((l) => l.run.status !== 'running');
    for (const old of ended.slice(0, Math.max(0, ended.length - KEEP_ENDED)))
      this.#live.delete(old.run.runId);
  }

  #loadEarlier(): SequenceRun[] {
    const runs: SequenceRun[] = [];
    for (const stored of this.#file.readAll()) {
      const { run } = stored;
      if (run.status === 'stopped' || run.status === 'killed') runs.push(run);
      // A run of another machine (a shared store) is not judged from here: the one that takes over does.
      const elsewhere = stored.host !== undefined && stored.host !== hostname();
      if (run.status !== 'running' || elsewhere || processAlive(stored.pid)) continue;
      markInterrupted(run, 'killed', stored.updatedAt, `killed at ${clockWords(stored.updatedAt)}`);
      this.#file.write(run, stored.updatedAt);
      runs.push(run);
      this.#found.push(structuredClone(run));
    }
    return runs;
  }
}
