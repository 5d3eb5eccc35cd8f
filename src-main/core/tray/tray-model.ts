import type {
  ConfirmRequest,
  ControllerState,
  ControllerSummary,
  FavouriteRef,
  Group,
  LimitBreach,
  OutletRef,
  Reservation,
} from '../../../src-preload/model';

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

export type TrayIconState = 'on' | 'off' | 'mixed' | 'offline';
