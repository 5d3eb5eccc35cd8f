/**
 * Which changes seen on a unit a script Plugboard started made.
 *
 * The rule: a script thread started through Plugboard (`scripts/start`) runs, as far as Plugboard knows,
 * from its start until a read of the controller's threads no longer lists it — and one poll of the
 * outlets longer, because the script may have switched an outlet just before it ended and after the
 * last outlet poll. Every change seen on that controller meanwhile (which no Plugboard request explains)
 * is recorded as the script's: door `script`, who "<function> (started by <who>)". When several run at
 * once, the latest started is named. A change made at the keypad while a script runs is therefore the
 * script's too: Plugboard cannot tell them apart.
 */
import type { Actor, ControllerState } from '../../../src-preload/model';
import type { NewActivity } from '../activity/activity-log';

interface ScriptRun {
  threadId: string;
  actor: Actor;
  /** The `lastUpdate` of the state whose threads no longer listed it; null while it runs. */
  endedAt: number | null;
}

export class ScriptAttribution {
  readonly #runs = new Map<string, ScriptRun[]>();

  /** A script thread Plugboard started: what `scripts/start` answered and on whose behalf. */
  started(controllerId: string, threadId: string, fn: string, by: Actor): void {
    const runs = this.#runs.get(controllerId) ?? [];
    runs.push({ threadId, actor: { door: 'script', who: `${fn} (started by ${by.who})` }, endedAt: null });
    this.#runs.set(controllerId, runs);
  }

  /** A controller's state was pushed: note threads that ended, forget those a later poll has covered. */
  seen(state: ControllerState): void {
    const runs = this.#runs.get(state.id);
    if (!runs) return;
    const polled = state.lastUpdate ?? 0;
    const threads = state.scripts ? new Set(state.scripts.threads.map((t) => t.id)) : null;
    const left = runs.filter((run) => {
      if (run.endedAt !== null) return polled <= run.endedAt;
      if (threads && !threads.has(run.threadId)) run.endedAt = polled;
      return true;
    });
    if (left.length) this.#runs.set(state.id, left);
    else this.#runs.delete(state.id);
  }

  /** The script an outside change is attributed to, or null (no script of Plugboard's runs there). */
  attribute(entry: NewActivity): Actor | null {
    return this.#runs.get(entry.controllerId)?.at(-1)?.actor ?? null;
  }

  forget(controllerId: string): void {
    this.#runs.delete(controllerId);
  }
}
