import type {
  ConfirmRequest,
  ControllerState,
  ControllerStatus,
  ControllerSummary,
  FavouriteRef,
  Group,
  LimitBreach,
  OutletRef,
  OutletState,
  Reservation,
} from '../../../src-preload/model';
import { STATUS_TEXT, capitalise, outletLabel } from '../../../src-preload/words';
import { neutralise, TEXT_LIMITS } from '../../shared/text';
import { untilText } from '../reservations/reservation-words';
import { breachWords } from '../meters/meter-limits';

/**
 * The tray menu as plain data: a pure function of the app's state, so it is tested without Electron.
 * Items carry an `action` descriptor instead of a click function; the shell maps actions to Core calls.
 */

/** What clicking an item asks for. */
export type TrayAction =
  /** `lab`: an outlet of a lab this desk attaches to, switched through the desk (`labs/call`). */
  | { kind: 'set'; controllerId: string; outlet: number; on: boolean; lab?: string }
  /** Switching a critical outlet off: the window must confirm first (push `ui/confirm` with `request`). */
  | { kind: 'confirm'; request: ConfirmRequest }
  | { kind: 'group'; id: string; action: 'on' | 'off' | 'cycle' }
  | { kind: 'open' }
  | { kind: 'hide' }
  | { kind: 'quit' };

interface ItemBase {
  /** Stable id, unique in the menu (Electron `id`). */
  id: string;
  label: string;
  /** A short explanation: why disabled, pending, critical (Electron `sublabel`/`toolTip`). */
  sublabel?: string;
  enabled: boolean;
}

export type TrayMenuItem =
  | { type: 'separator'; id: string }
  | (ItemBase & { type: 'normal'; action: TrayAction | null })
  | (ItemBase & { type: 'checkbox'; checked: boolean; action: TrayAction | null })
  | (ItemBase & { type: 'submenu'; submenu: TrayMenuItem[] });

export interface TrayState {
  /** Saved controllers in their tab order. */
  controllers: readonly ControllerSummary[];
  /** Live state per controller (missing = not known yet). */
  states: readonly ControllerState[];
  groups: readonly Group[];
  /** Outlets pinned to the top of the menu (settings `trayFavourites`), this computer's or a lab's. */
  favourites: readonly (OutletRef | FavouriteRef)[];
  /** The labs this desk attaches to, as last known (their favourites are shown from these). */
  labs?: readonly TrayLab[];
  /** The main window is showing: offer "Hide" instead of "Open". */
  windowVisible: boolean;
  /** Current reservations, who the tray acts for, and the time (for "until 14:30"). */
  reservations?: readonly Reservation[];
  user?: string;
  now?: number;
  /** Meters outside their limits (the Core's `meters/breaches`), and the °C/°F setting to word them. */
  breaches?: readonly LimitBreach[];
  temperatureUnit?: 'C' | 'F';
}

/** A lab's section as the tray shows its favourites: what the desk last knew of it. */
export interface TrayLab {
  id: string;
  name: string;
  /** Live: its outlets may be switched; otherwise they show as last known, disabled. */
  online: boolean;
  controllers: readonly ControllerSummary[];
  states: readonly ControllerState[];
  reservations: readonly Reservation[];
  /** Who this desk is signed in as there (its reservations are "yours"). */
  user: string | null;
}

/** One line per controller with meters outside their limits: "⚠ Bench A: Sensor 1 temperature above …". */
function breachItems(state: TrayState): TrayMenuItem[] {
  const items: TrayMenuItem[] = [];
  for (const controller of state.controllers) {
    const mine = (state.breaches ?? []).filter((b) => b.controllerId === controller.id);
    if (mine.length === 0) continue;
    const words = breachWords(mine[0]!, state.temperatureUnit ?? 'C');
    const more = mine.length > 1 ? ` (+${mine.length - 1} more)` : '';
    items.push({
      type: 'normal',
      id: `breach:${controller.id}`,
      label: `⚠ ${controller.name}: ${words}${more}`,
      sublabel: mine.map((b) => breachWords(b, state.temperatureUnit ?? 'C')).join('; '),
      enabled: true,
      action: { kind: 'open' },
    });
  }
  return items;
}

/** The reservation covering an outlet (someone else's first), or null. */
function reservationOn(state: TrayState, controllerId: string, number: number): Reservation | null {
  const covering = (state.reservations ?? []).filter((r) =>
    r.covers.some((c) => c.controllerId === controllerId && (c.outlet === null || c.outlet === number)),
  );
  return covering.find((r) => r.holder !== state.user) ?? covering[0] ?? null;
}

/** "Reserved by alice until 14:30: flashing" (or "by you"). */
function reservedWords(state: TrayState, r: Reservation): string {
  const by = r.holder === state.user ? 'you' : r.holder;
  return `Reserved by ${by} until ${untilText(r.expiresAt, state.now ?? Date.now())}: ${neutralise(r.reason, TEXT_LIMITS.reason)}`;
}

export type TrayIconState = 'on' | 'off' | 'mixed' | 'offline';

/** A status as the tray shows it: "Offline", "Auth problem" (the window's words, src-preload/words.ts). */
function statusWords(status: ControllerStatus): string {
  return capitalise(STATUS_TEXT[status]);
}

/** Statuses in which the controller cannot be switched and needs the person's attention. */
const TROUBLE: ReadonlySet<ControllerStatus> = new Set([
  'offline',
  'auth_failed',
  'api_disabled',
  'tls_changed',
  'error',
  'password_needed',
]);

function stateOf(state: TrayState, controllerId: string): ControllerState | null {
  return state.states.find((s) => s.id === controllerId) ?? null;
}

/** A menu item's label: "3 · Scope", or "Outlet 3" when unnamed (a sentence uses `outletLabel`). */
function menuLabel(outlet: OutletState): string {
  const name = outlet.name.trim();
  return name && name !== `Outlet ${outlet.number}`
    ? `${outlet.number} · ${name}`
    : `Outlet ${outlet.number}`;
}

function outletItem(
  id: string,
  label: string,
  controller: ControllerSummary,
  live: ControllerState | null,
  number: number,
  state: TrayState,
): TrayMenuItem {
  const base = { type: 'checkbox' as const, id, label };
  /** An item that cannot be clicked now, and why. */
  const disabled = (checked: boolean, sublabel: string, shown = label): TrayMenuItem => ({
    ...base,
    label: shown,
    checked,
    enabled: false,
    sublabel,
    action: null,
  });
  if (!live || live.status !== 'online') {
    return disabled(false, live ? statusWords(live.status) : 'Not connected yet');
  }
  const outlet = live.outlets.find((o) => o.number === number);
  if (!outlet) return disabled(false, `${controller.name} has no outlet ${number}`);
  const checked = outlet.physicalState;
  if (outlet.locked)
    return disabled(checked, 'Locked: only the keypad or the controller’s own page can switch it');
  if (!outlet.access) return disabled(checked, 'This user may not switch this outlet');
  const reserved = reservationOn(state, controller.id, number);
  if (reserved && reserved.holder !== state.user) return disabled(checked, reservedWords(state, reserved));
  const mine = reserved ? { sublabel: reservedWords(state, reserved) } : {};
  if (outlet.pending) {
    const what =
      outlet.pending.kind === 'cycle'
        ? 'Cycling…'
        : outlet.pending.target
          ? 'Switching on…'
          : 'Switching off…';
    return disabled(checked, what, `${label} …`);
  }
  if (outlet.critical && checked) {
    const request: ConfirmRequest = {
      controllerId: controller.id,
      outlets: [outlet.number],
      action: 'off',
      reason: `${capitalise(outletLabel(outlet.number, outlet.name))} on ${controller.name} is marked critical.`,
    };
    return {
      ...base,
      checked,
      enabled: true,
      sublabel: 'Critical: asks in the window before switching off',
      action: { kind: 'confirm', request },
    };
  }
  return {
    ...base,
    checked,
    enabled: true,
    ...mine,
    action: { kind: 'set', controllerId: controller.id, outlet: outlet.number, on: !checked },
  };
}

/** A lab's favourite: its outlet as last known; switched through the desk only while the lab is online. */
function labFavourite(state: TrayState, ref: FavouriteRef): TrayMenuItem | null {
  const lab = state.labs?.find((l) => l.id === ref.lab);
  const controller = lab?.controllers.find((c) => c.id === ref.controllerId);
  if (!lab || !controller) return null;
  const inLab: TrayState = {
    ...state,
    controllers: lab.controllers,
    states: lab.states,
    reservations: lab.reservations,
    ...(lab.user !== null ? { user: lab.user } : {}),
  };
  const live = stateOf(inLab, controller.id);
  const outlet = live?.outlets.find((o) => o.number === ref.outlet);
  const label = `${lab.name} › ${controller.name} › ${outlet ? menuLabel(outlet) : `Outlet ${ref.outlet}`}`;
  const id = `fav:${lab.id}:${controller.id}:${ref.outlet}`;
  if (!lab.online)
    return {
      type: 'checkbox',
      id,
      label,
      checked: outlet?.physicalState ?? false,
      enabled: false,
      sublabel: `${lab.name} cannot be reached: last known`,
      action: null,
    };
  const item = outletItem(id, label, controller, live, ref.outlet, inLab);
  if (item.type !== 'checkbox' || !item.action) return item;
  const action = item.action;
  if (action.kind === 'set') return { ...item, action: { ...action, lab: lab.id } };
  if (action.kind === 'confirm')
    return { ...item, action: { ...action, request: { ...action.request, lab: lab.id } } };
  return item;
}

function favouriteItems(state: TrayState): TrayMenuItem[] {
  const items: TrayMenuItem[] = [];
  for (const ref of state.favourites) {
    if ('lab' in ref && ref.lab !== undefined) {
      const item = labFavourite(state, ref);
      if (item) items.push(item);
      continue;
    }
    const controller = state.controllers.find((c) => c.id === ref.controllerId);
    if (!controller) continue;
    const live = stateOf(state, controller.id);
    const outlet = live?.outlets.find((o) => o.number === ref.outlet);
    const label = `${controller.name} › ${outlet ? menuLabel(outlet) : `Outlet ${ref.outlet}`}`;
    items.push(outletItem(`fav:${controller.id}:${ref.outlet}`, label, controller, live, ref.outlet, state));
  }
  return items;
}

function controllerSubmenu(state: TrayState, controller: ControllerSummary): TrayMenuItem {
  const live = stateOf(state, controller.id);
  const status = live ? statusWords(live.status) : 'Not connected yet';
  const id = `ctl:${controller.id}`;
  const label = controller.demo ? `${controller.name} (demo)` : controller.name;
  let submenu: TrayMenuItem[];
  if (!live || live.status !== 'online') {
    const why = live?.problem?.message ?? status;
    submenu = [{ type: 'normal', id: `${id}:status`, label: why, enabled: false, action: null }];
  } else if (live.outlets.length === 0) {
    submenu = [
      { type: 'normal', id: `${id}:status`, label: 'No outlets reported', enabled: false, action: null },
    ];
  } else {
    submenu = live.outlets.map((o) =>
      outletItem(`${id}:${o.number}`, menuLabel(o), controller, live, o.number, state),
    );
  }
  return { type: 'submenu', id, label, sublabel: status, enabled: true, submenu };
}

function groupSubmenu(state: TrayState, group: Group): TrayMenuItem {
  const id = `grp:${group.id}`;
  const reachable = group.members.filter((m) => stateOf(state, m.controllerId)?.status === 'online');
  const critical = group.members.filter(
    (m) => stateOf(state, m.controllerId)?.outlets.find((o) => o.number === m.outlet)?.critical,
  );
  // Refused whole by the Core while someone else reserves any member: say so instead.
  const reserved = group.members
    .map((m) => reservationOn(state, m.controllerId, m.outlet))
    .find((r) => r !== null && r.holder !== state.user);
  const enabled = reachable.length > 0 && !reserved;
  const why = reserved
    ? reservedWords(state, reserved)
    : enabled
      ? undefined
      : 'None of its controllers is online';
  const guarded = critical.length > 0 ? 'Has critical outlets: use the window' : why;
  const item = (
    action: 'on' | 'off' | 'cycle',
    label: string,
    allowed: boolean,
    sublabel: string | undefined,
  ): TrayMenuItem => ({
    type: 'normal',
    id: `${id}:${action}`,
    label,
    ...(sublabel ? { sublabel } : {}),
    enabled: allowed,
    action: allowed ? { kind: 'group', id: group.id, action } : null,
  });
  const safe = enabled && critical.length === 0;
  return {
    type: 'submenu',
    id,
    label: group.name,
    sublabel: `${group.members.length} outlet${group.members.length === 1 ? '' : 's'}`,
    enabled: true,
    // A sequence is switched on or off step by step, never cycled (the Core refuses it).
    submenu:
      group.kind === 'sequence'
        ? [item('on', 'Run on', enabled, why), item('off', 'Run off', safe, guarded)]
        : [
            item('on', 'All on', enabled, why),
            item('off', 'All off', safe, guarded),
            item('cycle', 'Cycle all', safe, guarded),
          ],
  };
}

/** The whole tray menu for this state. Pure: same state, same menu. */
export function buildTrayMenu(state: TrayState): TrayMenuItem[] {
  const menu: TrayMenuItem[] = [];
  const breaches = breachItems(state);
  if (breaches.length > 0) menu.push(...breaches, { type: 'separator', id: 'sep:breaches' });
  const favourites = favouriteItems(state);
  if (favourites.length > 0) menu.push(...favourites, { type: 'separator', id: 'sep:favourites' });
  if (state.controllers.length === 0) {
    menu.push({ type: 'normal', id: 'empty', label: 'No controllers yet', enabled: false, action: null });
  } else {
    menu.push(...state.controllers.map((c) => controllerSubmenu(state, c)));
  }
  const groups = state.groups.filter((g) => g.members.length > 0);
  if (groups.length > 0) {
    menu.push({ type: 'separator', id: 'sep:groups' });
    menu.push({
      type: 'submenu',
      id: 'groups',
      label: 'Groups',
      enabled: true,
      submenu: groups.map((g) => groupSubmenu(state, g)),
    });
  }
  menu.push({ type: 'separator', id: 'sep:app' });
  menu.push(
    state.windowVisible
      ? { type: 'normal', id: 'window', label: 'Hide Plugboard', enabled: true, action: { kind: 'hide' } }
      : { type: 'normal', id: 'window', label: 'Open Plugboard', enabled: true, action: { kind: 'open' } },
  );
  menu.push({ type: 'normal', id: 'quit', label: 'Quit', enabled: true, action: { kind: 'quit' } });
  return menu;
}

/**
 * The tray icon: 'offline' (the attention icon) when any saved controller needs attention (offline,
 * wrong password, API off, certificate changed, errors) or a meter is outside its limits; otherwise the physical state of every outlet of the online
 * controllers: all on, all off (also when nothing is known yet), or mixed.
 */
export function trayIconState(state: Pick<TrayState, 'controllers' | 'states' | 'breaches'>): TrayIconState {
  const saved = new Set(state.controllers.map((c) => c.id));
  if ((state.breaches ?? []).some((b) => saved.has(b.controllerId))) return 'offline';
  let on = 0;
  let off = 0;
  for (const controller of state.controllers) {
    const live = state.states.find((s) => s.id === controller.id);
    if (!live) continue;
    if (TROUBLE.has(live.status)) return 'offline';
    if (live.status !== 'online') continue;
    for (const outlet of live.outlets) {
      if (outlet.physicalState) on++;
      else off++;
    }
  }
  if (on > 0 && off > 0) return 'mixed';
  return on > 0 ? 'on' : 'off';
}

/** The tray's tooltip: what the icon means, naming limit breaches when there are any. */
export function trayToolTip(state: Pick<TrayState, 'controllers' | 'states' | 'breaches'>): string {
  const saved = new Set(state.controllers.map((c) => c.id));
  const breaches = (state.breaches ?? []).filter((b) => saved.has(b.controllerId));
  if (breaches.length > 0)
    return breaches.length === 1
      ? 'Plugboard: a meter is outside its limits'
      : `Plugboard: ${breaches.length} meters are outside their limits`;
  return TOOLTIP[trayIconState(state)];
}

const TOOLTIP: Record<TrayIconState, string> = {
  on: 'Plugboard: all outlets on',
  off: 'Plugboard: all outlets off',
  mixed: 'Plugboard: some outlets on',
  offline: 'Plugboard: a controller needs attention',
};
