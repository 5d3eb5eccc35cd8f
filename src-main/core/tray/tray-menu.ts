import type { ControllerStatus, ControllerSummary, Group } from '../../../src-preload/model';
import { breachWords } from '../meters/meter-limits';
import type { TrayIconState, TrayMenuItem, TrayState } from './tray-model';
import {
  favouriteItems,
  menuLabel,
  outletItem,
  reservationOn,
  reservedWords,
  stateOf,
  statusWords,
} from './tray-outlets';

export type { TrayAction, TrayIconState, TrayLab, TrayMenuItem, TrayState } from './tray-model';

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

/** Statuses in which the controller cannot be switched and needs the person's attention. */
const TROUBLE: ReadonlySet<ControllerStatus> = new Set([
  'offline',
  'auth_failed',
  'api_disabled',
  'tls_changed',
  'error',
  'password_needed',
]);

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
