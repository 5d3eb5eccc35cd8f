import type {
  AppInfo,
  CallInput,
  ConfirmRequest,
  ContractError,
  ControllerState,
  FavouriteRef,
  ControllerSummary,
  Group,
  GroupRunResult,
  MeterThreshold,
  OutletRef,
  Result,
  Settings,
} from '../../../src-preload/contract';
import { DEFAULT_SETTINGS } from '../../../src-preload/model';
import { settle, type Backend } from '../backend';
import { labBackend } from '../lab-backend';
import { controllerActions, type ControllerActions } from './controller-actions';
import { ReservationsState } from './reservations.svelte';

/** Shown until the backend's settings arrive: the values the Core starts with. */
export { DEFAULT_SETTINGS };

/** A problem worth a banner at the top of the window: what failed, and the error. */
export interface Banner {
  context: string;
  error: ContractError;
}

/**
 * The window's model of the app: controllers, their live state, groups and settings, kept current by the
 * events main pushes. Owns every app-wide backend call; per-controller calls go through `actionsFor(id)`.
 */
export class AppState {
  info = $state.raw<AppInfo | null>(null);
  controllers = $state.raw<ControllerSummary[]>([]);
  /** Live state by controller id; replaced whole on every `state/changed`. */
  states = $state.raw<Record<string, ControllerState>>({});
  groups = $state.raw<Group[]>([]);
  settings = $state.raw<Settings>(DEFAULT_SETTINGS);
  loading = $state(true);
  /** Why the window could not load (the snapshot failed). */
  loadError = $state.raw<ContractError | null>(null);
  banner = $state.raw<Banner | null>(null);
  /** Requests from the tray to confirm switching critical outlets, oldest first. */
  confirmQueue = $state.raw<ConfirmRequest[]>([]);

  /** The Core answered `accounts/list`: the People page is offered for it. */
  people = $state(false);

  readonly api: Backend;
  /** Who reserved what: shown on outlet rows, the Overview and the tray. */
  readonly reservations: ReservationsState;
  /** The lab this Core is, on this desk; undefined: this computer's own Core. */
  readonly lab: string | undefined;
  /** This computer's state: its settings keep the tray's favourites, a lab's outlets' too. */
  readonly #home: AppState;
  /** Per-controller actions, made once each; not reactive on purpose. */
  #actions: Record<string, ControllerActions> = {};

  constructor(api: Backend, lab?: { id: string; home: AppState }) {
    this.api = api;
    this.reservations = new ReservationsState(api);
    this.lab = lab?.id;
    this.#home = lab?.home ?? this;
  }

  /** Listen to main's events and load everything; returns the function that stops listening. */
  start(): () => void {
    const offs = [
      this.api.on('controllers/changed', (list) => (this.controllers = sortByOrder(list))),
      this.api.on('state/changed', (state) => (this.states = { ...this.states, [state.id]: state })),
      this.api.on('groups/changed', (groups) => (this.groups = groups)),
      this.api.on('settings/changed', (settings) => (this.settings = settings)),
      this.api.on('ui/confirm', (request) => (this.confirmQueue = [...this.confirmQueue, request])),
      this.reservations.start(),
    ];
    void this.load();
    void this.probePeople();
    return () => offs.forEach((off) => off());
  }

  /**
   * The People page is offered to those who may manage accounts: an administrator of everything, on a
   * Core that keeps accounts (a lab store). Who the caller is comes first: anyone else is not asked to
   * list them, since the Core logs each refused attempt; an administrator's list answers or is refused
   * (no lab store). A Core that cannot say who the caller is is asked the list.
   */
  async probePeople(): Promise<void> {
    const me = await settle(this.api.app.whoami({}));
    if (me.ok && (me.value.role !== 'admin' || me.value.scope.kind !== 'all')) {
      this.people = false;
      return;
    }
    this.people = (await settle(this.api.accounts.list({}))).ok;
  }

  /** Load (or reload after a failure) the snapshot; falls back to the two calls every shell answers. */
  async load(): Promise<void> {
    this.loading = true;
    const snapshot = await settle(this.api.app.snapshot({}));
    if (snapshot.ok) {
      const { info, controllers, states, groups, settings } = snapshot.value;
      this.info = info;
      this.controllers = sortByOrder(controllers);
      this.states = { ...Object.fromEntries(states.map((s) => [s.id, s])), ...this.states };
      this.groups = groups;
      this.settings = settings;
      this.loadError = null;
    } else {
      const [info, list] = await Promise.all([
        settle(this.api.app.info({})),
        settle(this.api.controllers.list({})),
      ]);
      if (info.ok) this.info = info.value;
      if (list.ok) this.controllers = sortByOrder(list.value);
      this.loadError = snapshot.error;
    }
    this.loading = false;
  }

  summary(id: string): ControllerSummary | undefined {
    return this.controllers.find((c) => c.id === id);
  }

  /** The actions of one controller (the same object every time, so components can keep it). */
  actionsFor(id: string): ControllerActions {
    return (this.#actions[id] ??= controllerActions(this.api, id));
  }

  async addController(input: CallInput<'controllers/add'>): Promise<Result<ControllerSummary>> {
    const result = await settle(this.api.controllers.add(input));
    if (result.ok) this.#upsert(result.value);
    return result;
  }

  async startDemo(): Promise<Result<ControllerSummary[]>> {
    const result = await settle(this.api.demo.start({}));
    if (result.ok) result.value.forEach((c) => this.#upsert(c));
    return result;
  }

  /** Remove every demo controller (main stops their emulators). */
  async removeDemo(): Promise<Result<null>> {
    const result = await settle(this.api.demo.remove({}));
    if (result.ok) this.controllers = this.controllers.filter((c) => !c.demo);
    return result;
  }

  /** Move tabs at once; put them back if main refuses. */
  async reorder(ids: string[]): Promise<Result<ControllerSummary[]>> {
    const before = this.controllers;
    this.controllers = ids.flatMap((id, order) => {
      const c = before.find((x) => x.id === id);
      return c ? [{ ...c, order }] : [];
    });
    const result = await settle(this.api.controllers.reorder({ ids }));
    if (result.ok) this.controllers = sortByOrder(result.value);
    else {
      this.controllers = before;
      this.banner = { context: 'The new tab order was not saved.', error: result.error };
    }
    return result;
  }

  /** Forget a removed controller locally; `controllers/changed` confirms it. */
  forget(id: string): void {
    this.controllers = this.controllers.filter((c) => c.id !== id);
    const { [id]: _gone, ...rest } = this.states;
    this.states = rest;
    delete this.#actions[id];
  }

  async saveSettings(patch: CallInput<'settings/set'>): Promise<Result<Settings>> {
    const result = await settle(this.api.settings.set(patch));
    if (result.ok) this.settings = result.value;
    return result;
  }

  /** The shell has a tray to pin outlets to (this computer's: not the web shell's page). */
  get hasTray(): boolean {
    const info = this.#home.info;
    return info !== null && info.shell !== 'web';
  }

  /** This Core's outlet as this computer's settings pin it: a lab's outlets by the lab's id. */
  #isRef(f: FavouriteRef, ref: OutletRef): boolean {
    return f.lab === this.lab && f.controllerId === ref.controllerId && f.outlet === ref.outlet;
  }

  isFavourite(ref: OutletRef): boolean {
    return this.#home.settings.trayFavourites.some((f) => this.#isRef(f, ref));
  }

  /** The outlets of one controller pinned to the tray. */
  favouritesOf(controllerId: string): number[] {
    return this.#home.settings.trayFavourites
      .filter((f) => f.lab === this.lab && f.controllerId === controllerId)
      .map((f) => f.outlet);
  }

  /**
   * Pin an outlet to the tray, or unpin it. The tray is this computer's: a lab's outlet is kept in this
   * computer's settings with the lab's id, never in the lab's settings.
   */
  async toggleFavourite(ref: OutletRef): Promise<Result<Settings>> {
    const home = this.#home;
    const others = home.settings.trayFavourites.filter((f) => !this.#isRef(f, ref));
    const pinned: FavouriteRef = this.lab === undefined ? { ...ref } : { ...ref, lab: this.lab };
    const trayFavourites = this.isFavourite(ref) ? others : [...others, pinned];
    const result = await home.saveSettings({ trayFavourites });
    if (!result.ok) this.banner = { context: 'The tray favourites were not saved.', error: result.error };
    return result;
  }

  /** Save one meter's limits in place of its old ones; with neither limit set, the entry goes. */
  saveThreshold(threshold: MeterThreshold): Promise<Result<Settings>> {
    const others = this.settings.meterThresholds.filter(
      (t) => !(t.controllerId === threshold.controllerId && t.key === threshold.key),
    );
    const none = threshold.min === null && threshold.max === null;
    return this.saveSettings({ meterThresholds: none ? others : [...others, threshold] });
  }

  async saveGroup(input: CallInput<'groups/save'>): Promise<Result<Group>> {
    const result = await settle(this.api.groups.save(input));
    if (result.ok) this.groups = [...this.groups.filter((g) => g.id !== result.value.id), result.value];
    return result;
  }

  async removeGroup(id: string): Promise<Result<null>> {
    const result = await settle(this.api.groups.remove({ id }));
    if (result.ok) this.groups = this.groups.filter((g) => g.id !== id);
    return result;
  }

  /** `confirmCritical`: the person confirmed that the group's critical outlets may lose power. */
  runGroup(
    id: string,
    action: 'on' | 'off' | 'cycle',
    confirmCritical = false,
  ): Promise<Result<GroupRunResult>> {
    return settle(this.api.groups.run({ id, action, confirmCritical }));
  }

  /**
   * Answer the oldest tray request: when confirmed, the window does what the tray asked, on the Core
   * whose outlets they are: this computer's, or a lab's (its state from `labCore`, else straight through
   * `labs/call`), so the lab's Core checks and switches them as this window's call.
   */
  async answerConfirm(confirmed: boolean, labCore?: (lab: string) => AppState | undefined): Promise<void> {
    const [request, ...rest] = this.confirmQueue;
    this.confirmQueue = rest;
    if (!request || !confirmed) return;
    const core = request.lab === undefined ? this : labCore?.(request.lab);
    const actions =
      core?.actionsFor(request.controllerId) ??
      controllerActions(labBackend(this.api, request.lab!), request.controllerId);
    const results =
      request.action === 'off'
        ? [await actions.set(request.outlets, false, false, true)]
        : await Promise.all(request.outlets.map((outlet) => actions.cycle(outlet, true)));
    const failed = results.find((r) => !r.ok);
    if (failed && !failed.ok)
      (core ?? this).banner = { context: 'What the tray asked for did not happen.', error: failed.error };
  }

  #upsert(summary: ControllerSummary): void {
    this.controllers = sortByOrder([...this.controllers.filter((c) => c.id !== summary.id), summary]);
  }
}

function sortByOrder(list: ControllerSummary[]): ControllerSummary[] {
  return [...list].sort((a, b) => a.order - b.order);
}
