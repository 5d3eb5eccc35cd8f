/*
 * The tray's outlet items: one outlet as a checkbox (or why it cannot be switched now), in a controller's
 * submenu or as a favourite at the top of the menu, this computer's or a lab's the desk attaches to.
 */
import type {
  ConfirmRequest,
  ControllerState,
  ControllerStatus,
  ControllerSummary,
  FavouriteRef,
  OutletState,
  Reservation,
} from '../../../src-preload/model';
import { STATUS_TEXT, capitalise, outletLabel } from '../../../src-preload/words';
import { neutralise, TEXT_LIMITS } from '../../shared/text';
import { untilText } from '../reservations/reservation-words';
import type { TrayMenuItem, TrayState } from './tray-model';

/** The reservation covering an outlet (someone else's first), or null. */
export function reservationOn(state: TrayState, controllerId: string, number: number): Reservation | null {
  const covering = (state.reservations ?? []).filter((r) =>
    r.covers.some((c) => c.controllerId === controllerId && (c.outlet === null || c.outlet === number)),
  );
  return covering.find((r) => r.holder !== state.user) ?? covering[0] ?? null;
}

/** "Reserved by alice until 14:30: flashing" (or "by you"). */
export function reservedWords(state: TrayState, r: Reservation): string {
  const by = r.holder === state.user ? 'you' : r.holder;
  return `Reserved by ${by} until ${untilText(r.expiresAt, state.now ?? Date.now())}: ${neutralise(r.reason, TEXT_LIMITS.reason)}`;
}

/** A status as the tray shows it: "Offline", "Auth problem" (the window's words, src-preload/words.ts). */
export function statusWords(status: ControllerStatus): string {
  return capitalise(STATUS_TEXT[status]);
}

export function stateOf(state: TrayState, controllerId: string): ControllerState | null {
  return state.states.find((s) => s.id === controllerId) ?? null;
}

/** A menu item's label: "3 · Scope", or "Outlet 3" when unnamed (a sentence uses `outletLabel`). */
export function menuLabel(outlet: OutletState): string {
  const name = outlet.name.trim();
  return name && name !== `Outlet ${outlet.number}`
    ? `${outlet.number} · ${name}`
    : `Outlet ${outlet.number}`;
}

export function outletItem(
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

export function favouriteItems(state: TrayState): TrayMenuItem[] {
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
