import type { CallInput, Result } from '../../../src-preload/contract';
import type { LabSummary } from '../../../src-preload/model';
import { settle, type Backend } from '../backend';
import { labBackend } from '../lab-backend';
import { AppState } from './app-state.svelte';

/** A lab's Core in the window: its state, made and listening while the desk is signed in to it. */
interface LabCore {
  app: AppState;
  stop: () => void;
  status: LabSummary['status'];
}

/**
 * The labs this computer attaches to (`labs/list`, kept current by `labs/changed`), and one AppState
 * per lab over a backend whose calls go through `labs/call`. This computer's Core answers `labs/*`
 * only when it is a desk: `available` is false when it refused the list (a lab service, a CLI).
 */
export class LabsState {
  list = $state.raw<LabSummary[]>([]);
  /** The Core answered `labs/list`: it attaches to labs (it may attach to none yet). */
  available = $state(false);
  /** The Core answered `labs/list` or refused it: the window knows which sections there are. */
  loaded = $state(false);
  /** Each lab's state by id; replaced whole so the window redraws when one comes or goes. */
  cores = $state.raw<Record<string, AppState>>({});

  readonly #local: Backend;
  readonly #home: AppState;
  /** Not reactive on purpose: `cores` is what the window reads. */
  #made: Record<string, LabCore> = {};

  constructor(local: Backend, home: AppState) {
    this.#local = local;
    this.#home = home;
  }

  /** Listen to `labs/changed` and load the list; returns the function that stops everything. */
  start(): () => void {
    let heard = false;
    const off = this.#local.on('labs/changed', (list) => {
      heard = true;
      this.available = this.loaded = true;
      this.#apply(list);
    });
    void settle(this.#local.labs.list({})).then((result) => {
      this.loaded = true;
      if (!result.ok || heard) return;
      this.available = true;
      this.#apply(result.value);
    });
    return () => {
      off();
      for (const core of Object.values(this.#made)) core.stop();
      this.#made = {};
    };
  }

  /** The labs signed in to, in the sidebar's order, with their states (for Go to… across sections). */
  get signedIn(): { core: string; name: string; app: AppState }[] {
    return this.list.flatMap((l) => {
      const app = this.cores[l.id];
      return app ? [{ core: l.id, name: l.name, app }] : [];
    });
  }

  lab(id: string): LabSummary | undefined {
    return this.list.find((l) => l.id === id);
  }

  add(input: CallInput<'labs/add'>): Promise<Result<LabSummary>> {
    return this.#changing(this.#local.labs.add(input));
  }

  signIn(lab: string, name: string, password: string): Promise<Result<LabSummary>> {
    return this.#changing(this.#local.labs.signIn({ lab, name, password }));
  }

  signInWithProvider(lab: string): Promise<Result<LabSummary>> {
    return this.#changing(this.#local.labs.signInWithProvider({ lab }));
  }

  signOut(lab: string): Promise<Result<LabSummary>> {
    return this.#changing(this.#local.labs.signOut({ lab }));
  }

  async remove(lab: string): Promise<Result<null>> {
    const result = await settle(this.#local.labs.remove({ lab }));
    if (result.ok) this.#apply(this.list.filter((l) => l.id !== lab));
    return result;
  }

  /** A call that answers the lab's new summary: shown at once, `labs/changed` confirms it. */
  async #changing(pending: Promise<Result<LabSummary>>): Promise<Result<LabSummary>> {
    const result = await settle(pending);
    if (result.ok) {
      const lab = result.value;
      const known = this.list.some((l) => l.id === lab.id);
      this.#apply(known ? this.list.map((l) => (l.id === lab.id ? lab : l)) : [...this.list, lab]);
    }
    return result;
  }

  /**
   * Take a new list: a lab the desk is signed in to gets its state (made once, listening to its
   * events); one signed out or removed loses it. A lab that comes back online reloads what it shows.
   */
  #apply(list: LabSummary[]): void {
    this.list = list;
    const kept: Record<string, LabCore> = {};
    for (const lab of list) {
      if (lab.status === 'signed-out') continue;
      const made = this.#made[lab.id];
      if (!made) {
        const app = new AppState(labBackend(this.#local, lab.id), { id: lab.id, home: this.#home });
        kept[lab.id] = { app, stop: app.start(), status: lab.status };
        continue;
      }
      kept[lab.id] = made;
      if (made.status !== lab.status) {
        if (lab.status === 'online') {
          void made.app.load();
          void made.app.probePeople();
        }
        made.status = lab.status;
      }
    }
    for (const [id, made] of Object.entries(this.#made)) if (!kept[id]) made.stop();
    this.#made = kept;
    this.cores = Object.fromEntries(Object.entries(kept).map(([id, made]) => [id, made.app]));
  }
}
