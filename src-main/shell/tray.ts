/**
 * The tray: applies the pure menu model from core/tray/tray-menu.ts to an Electron Tray, rebuilding it
 * (coalesced) when the Core's state changes and only when the menu really differs — replacing a menu
 * closes it on some desktops — and maps menu clicks to Core calls made on behalf of the tray.
 */
import { join } from 'node:path';
import type { MenuItemConstructorOptions, NativeImage } from 'electron';
import type { CallName, EventName } from '../../src-preload/contract';
import type { LabEvent } from '../../src-preload/model';
import {
  osUserName,
  type Core,
  type Notice,
  dispatch,
  buildTrayMenu,
  trayIconState,
  trayToolTip,
  type TrayAction,
  type TrayIconState,
  type TrayLab,
  type TrayMenuItem,
} from '../core/index';
import type { Desk } from '../desk';
import type { Logger } from '../shared/logging';
import { errorSentence } from '../shared/errors';

/** What the tray needs of Electron (a fake in tests). */
export interface TrayElectron {
  Tray: new (image: NativeImage) => TrayLike;
  Menu: { buildFromTemplate(template: MenuItemConstructorOptions[]): unknown };
  nativeImage: { createFromPath(path: string): NativeImage };
  nativeTheme: { shouldUseDarkColors: boolean; on(event: 'updated', listener: () => void): unknown };
}

export interface TrayLike {
  setContextMenu(menu: never): void;
  setImage(image: NativeImage): void;
  setToolTip(text: string): void;
  destroy(): void;
}

export interface TrayWindow {
  show(): void;
  hide(): void;
  isVisible(): boolean;
}

export interface PlugboardTrayOptions {
  electron: TrayElectron;
  core: Pick<Core, 'handlers' | 'handlersAs' | 'subscribe' | 'requestConfirmation'>;
  /** The folder with tray-{light|dark}-{state}.png (and @2x). */
  iconDir: string;
  window: TrayWindow;
  quit(): void;
  log: Logger;
  /** Tells the person when a tray action failed (the window may be hidden). */
  notify?: (notice: Notice) => void;
  /** The labs the desk attaches to: their favourites are shown from what it last knew. */
  desk?: Pick<Desk, 'labs' | 'lab'>;
  /** Rebuilds within this long of the first change, ms (default 150). */
  coalesceMs?: number;
}

/** Events that can change what the tray shows. */
const RELEVANT: ReadonlySet<EventName> = new Set([
  'state/changed',
  'controllers/changed',
  'groups/changed',
  'settings/changed',
  'reservations/changed',
  'meters/breaches',
]);

/** The icon file for a state; "dark" icons (light outline) go on dark panels. */
export function trayIconPath(iconDir: string, state: TrayIconState, dark: boolean): string {
  return join(iconDir, `tray-${dark ? 'dark' : 'light'}-${state}.png`);
}

/** The Electron menu template for the menu model; clicks call `run` with the item's action. */
export function menuTemplate(
  items: readonly TrayMenuItem[],
  run: (action: TrayAction) => void,
): MenuItemConstructorOptions[] {
  return items.map((item): MenuItemConstructorOptions => {
    if (item.type === 'separator') return { id: item.id, type: 'separator' };
    const base = {
      id: item.id,
      label: item.label,
      enabled: item.enabled,
      ...(item.sublabel ? { sublabel: item.sublabel, toolTip: item.sublabel } : {}),
    };
    if (item.type === 'submenu')
      return { ...base, type: 'submenu', submenu: menuTemplate(item.submenu, run) };
    const action = item.action;
    const click = action ? () => run(action) : undefined;
    if (item.type === 'checkbox')
      return { ...base, type: 'checkbox', checked: item.checked, ...(click ? { click } : {}) };
    return { ...base, type: 'normal', ...(click ? { click } : {}) };
  });
}

export class PlugboardTray {
  readonly #options: PlugboardTrayOptions;
  readonly #tray: TrayLike;
  readonly #unsubscribe: () => void;
  #timer: NodeJS.Timeout | null = null;
  #menu = '';
  #icon = '';
  #toolTip = '';
  #disposed = false;

  constructor(options: PlugboardTrayOptions) {
    this.#options = options;
    const { electron } = options;
    this.#tray = new electron.Tray(
      electron.nativeImage.createFromPath(trayIconPath(options.iconDir, 'off', this.#dark())),
    );
    this.#tray.setToolTip('Plugboard');
    this.#unsubscribe = options.core.subscribe((name, payload) => {
      if (RELEVANT.has(name) || name === 'labs/changed') this.schedule();
      else if (name === 'labs/event') {
        const inner = (payload as LabEvent).name as EventName;
        if (RELEVANT.has(inner)) this.schedule();
      }
    });
    electron.nativeTheme.on('updated', () => {
      this.#icon = '';
      this.schedule();
    });
    void this.#rebuild();
  }

  /** Rebuild soon; several changes in a burst make one rebuild. */
  schedule(): void {
    if (this.#disposed || this.#timer) return;
    this.#timer = setTimeout(() => {
      this.#timer = null;
      void this.#rebuild();
    }, this.#options.coalesceMs ?? 150);
  }

  /** Rebuild now from the Core's snapshot; the menu and icon change only if they differ. */
  async refresh(): Promise<void> {
    const snapshot = await this.#options.core.handlers['app/snapshot']({});
    if (this.#disposed) return;
    const state = {
      controllers: snapshot.controllers,
      states: snapshot.states,
      groups: snapshot.groups,
      favourites: snapshot.settings.trayFavourites,
      labs: this.#labs(snapshot.settings.trayFavourites),
      windowVisible: this.#options.window.isVisible(),
      reservations: await this.#options.core.handlers['reservations/list']({}),
      user: osUserName(),
      now: Date.now(),
      breaches: await this.#options.core.handlers['meters/breaches']({}),
      temperatureUnit: snapshot.settings.temperatureUnit,
    };
    const menu = buildTrayMenu(state);
    const serialised = JSON.stringify(menu);
    if (serialised !== this.#menu) {
      this.#menu = serialised;
      const built = this.#options.electron.Menu.buildFromTemplate(
        menuTemplate(menu, (action) => this.run(action)),
      );
      this.#tray.setContextMenu(built as never);
    }
    const iconState = trayIconState(state);
    const icon = trayIconPath(this.#options.iconDir, iconState, this.#dark());
    if (icon !== this.#icon) {
      this.#icon = icon;
      this.#tray.setImage(this.#options.electron.nativeImage.createFromPath(icon));
    }
    const toolTip = trayToolTip(state);
    if (toolTip !== this.#toolTip) {
      this.#toolTip = toolTip;
      this.#tray.setToolTip(toolTip);
    }
  }

  /** The labs some favourite names, as the desk last knew them. */
  #labs(favourites: readonly { lab?: string }[]): TrayLab[] {
    const desk = this.#options.desk;
    if (!desk) return [];
    const named = new Set(favourites.map((f) => f.lab).filter((lab) => lab !== undefined));
    const labs: TrayLab[] = [];
    for (const id of named) {
      const found = desk.lab(id);
      if (!found) continue;
      const { summary, known } = found;
      labs.push({
        id,
        name: summary.name,
        online: summary.status === 'online',
        controllers: known?.snapshot.controllers ?? [],
        states: known?.snapshot.states ?? [],
        reservations: known?.reservations ?? [],
        user: summary.account?.who ?? null,
      });
    }
    return labs;
  }

  /** What a click on a menu item does. */
  run(action: TrayAction): void {
    const { core, window } = this.#options;
    switch (action.kind) {
      case 'set':
        if (action.lab !== undefined) {
          void this.#call('labs/call', {
            lab: action.lab,
            name: 'outlets/set',
            input: { controllerId: action.controllerId, outlets: [action.outlet], on: action.on },
          });
          return;
        }
        void this.#call('outlets/set', {
          controllerId: action.controllerId,
          outlets: [action.outlet],
          on: action.on,
        });
        return;
      case 'group':
        void this.#call('groups/run', { id: action.id, action: action.action });
        return;
      case 'confirm':
        // Critical outlets are never switched off from the tray: the window asks first.
        window.show();
        core.requestConfirmation(action.request);
        return;
      case 'open':
        window.show();
        this.schedule();
        return;
      case 'hide':
        window.hide();
        this.schedule();
        return;
      case 'quit':
        this.#options.quit();
        return;
    }
  }

  dispose(): void {
    this.#disposed = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#unsubscribe();
    this.#tray.destroy();
  }

  /**
   * A rebuild nobody waits for: one whose Core cannot answer (a service's link that closed, at quit or
   * because the service stopped) leaves the menu as it was and is logged, never thrown into the void,
   * where it would end the process.
   */
  async #rebuild(): Promise<void> {
    try {
      await this.refresh();
    } catch (error) {
      if (!this.#disposed) this.#options.log('The tray menu could not be brought up to date', error);
    }
  }

  async #call(name: CallName, input: unknown): Promise<void> {
    const result = await dispatch(this.#options.core.handlersAs('tray'), name, input, this.#options.log);
    if (result.ok) return;
    // The tray cannot confirm by itself: the window asks the person, then sends the confirmed call.
    const labCall = name === 'labs/call' ? (input as { lab: string; input: unknown }) : null;
    if (result.error.code === 'CRITICAL_UNCONFIRMED' && (name === 'outlets/set' || labCall)) {
      const { controllerId } = (labCall ? labCall.input : input) as { controllerId: string };
      const outlets = (Array.isArray(result.error.detail?.outlets) ? result.error.detail.outlets : [])
        .map(String)
        .filter((cell) => cell.startsWith(`${controllerId}:`))
        .map((cell) => Number(cell.slice(controllerId.length + 1)));
      this.#options.window.show();
      this.#options.core.requestConfirmation({
        ...(labCall ? { lab: labCall.lab } : {}),
        controllerId,
        outlets,
        action: 'off',
        reason: result.error.message,
      });
      return;
    }
    this.#options.log(`The tray could not ${name}: ${result.error.message}`);
    const how =
      result.error.code === 'CRITICAL_UNCONFIRMED'
        ? { action: 'Switch it from the Plugboard window, which asks first.' }
        : {};
    this.#options.notify?.({
      title: 'Plugboard could not do that',
      body: errorSentence({ ...result.error, ...how }),
    });
  }

  #dark(): boolean {
    return this.#options.electron.nativeTheme.shouldUseDarkColors;
  }
}
