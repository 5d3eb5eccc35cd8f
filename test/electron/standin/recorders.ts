/**
 * Tray, Menu, Notification, nativeImage, nativeTheme, shell and session: they do nothing on screen here,
 * they record what the app asked for, so a test can read the tray menu, click its items and see the
 * notifications.
 */
import { existsSync } from 'node:fs';
import { EventEmitter } from 'node:events';

export interface MenuItemView {
  id?: string;
  label?: string;
  sublabel?: string;
  type: string;
  enabled: boolean;
  checked?: boolean;
  submenu?: MenuItemView[];
}

interface Template {
  id?: string;
  label?: string;
  sublabel?: string;
  type?: string;
  enabled?: boolean;
  checked?: boolean;
  submenu?: Template[];
  click?: (item: unknown, window: unknown, event: unknown) => void;
}

export class StandInMenu {
  constructor(readonly items: Template[]) {}

  static buildFromTemplate(template: Template[]): StandInMenu {
    return new StandInMenu(template);
  }

  view(items = this.items): MenuItemView[] {
    return items.map((item) => ({
      type: item.type ?? (item.submenu ? 'submenu' : 'normal'),
      enabled: item.enabled ?? true,
      ...(item.id === undefined ? {} : { id: item.id }),
      ...(item.label === undefined ? {} : { label: item.label }),
      ...(item.sublabel === undefined ? {} : { sublabel: item.sublabel }),
      ...(item.checked === undefined ? {} : { checked: item.checked }),
      ...(item.submenu ? { submenu: this.view(item.submenu) } : {}),
    }));
  }

  /** A person choosing the item: refused when it is disabled (a native menu does not fire those). */
  click(id: string): void {
    const find = (items: Template[]): Template | undefined => {
      for (const item of items) {
        if (item.id === id) return item;
        const inner = item.submenu && find(item.submenu);
        if (inner) return inner;
      }
      return undefined;
    };
    const item = find(this.items);
    if (!item) throw new Error(`The menu has no item ${id}`);
    if (item.enabled === false) throw new Error(`The menu item ${id} is disabled`);
    // Electron flips a checkbox before it calls click.
    if (item.type === 'checkbox') item.checked = !item.checked;
    item.click?.(item, null, { triggeredByAccelerator: false });
  }
}

export interface NativeImageLike {
  path: string;
  isEmpty(): boolean;
}

export const nativeImage = {
  createFromPath: (path: string): NativeImageLike => ({ path, isEmpty: () => !existsSync(path) }),
  createEmpty: (): NativeImageLike => ({ path: '', isEmpty: () => true }),
};

export const trays: StandInTray[] = [];

export class StandInTray extends EventEmitter {
  menu: StandInMenu | null = null;
  image: NativeImageLike;
  tooltip = '';
  destroyed = false;

  constructor(image: NativeImageLike) {
    super();
    this.image = image;
    trays.push(this);
  }

  setContextMenu(menu: StandInMenu | null): void {
    this.menu = menu;
  }

  setImage(image: NativeImageLike): void {
    this.image = image;
  }

  setToolTip(text: string): void {
    this.tooltip = text;
  }

  isDestroyed(): boolean {
    return this.destroyed;
  }

  destroy(): void {
    this.destroyed = true;
  }
}

export interface NotificationView {
  title: string;
  body: string;
  icon?: string;
}

export const notifications: NotificationView[] = [];

export class StandInNotification extends EventEmitter {
  static isSupported(): boolean {
    return true;
  }

  constructor(readonly options: NotificationView) {
    super();
  }

  show(): void {
    notifications.push({ ...this.options });
    this.emit('show');
  }

  close(): void {
    this.emit('close');
  }
}

class NativeTheme extends EventEmitter {
  shouldUseDarkColors = false;
  themeSource: 'system' | 'light' | 'dark' = 'system';
}
export const nativeTheme = new NativeTheme();

export const openedExternally: string[] = [];
export const shell = {
  openExternal: async (url: string) => void openedExternally.push(url),
  openPath: async () => '',
  showItemInFolder: () => undefined,
};

type HeadersListener = (details: unknown, callback: (response: unknown) => void) => void;
export const sessionRecord: {
  onHeadersReceived: HeadersListener | null;
  permissionRequestHandler: unknown;
  permissionCheckHandler: unknown;
} = { onHeadersReceived: null, permissionRequestHandler: null, permissionCheckHandler: null };

export const session = {
  defaultSession: {
    webRequest: {
      onHeadersReceived: (listener: HeadersListener) => void (sessionRecord.onHeadersReceived = listener),
    },
    setPermissionRequestHandler: (handler: unknown) =>
      void (sessionRecord.permissionRequestHandler = handler),
    setPermissionCheckHandler: (handler: unknown) => void (sessionRecord.permissionCheckHandler = handler),
  },
};

/** A message box the app showed; the test answers it (the index of a button) over the control socket. */
export interface DialogView {
  title: string;
  message: string;
  buttons: string[];
  response: number | null;
}
export const dialogs: DialogView[] = [];
const unanswered: { view: DialogView; answer: (response: number) => void }[] = [];

export const dialog = {
  /** `showMessageBox([window,] options)`: resolves when the test answers it. */
  showMessageBox(first: unknown, second?: unknown): Promise<{ response: number; checkboxChecked: boolean }> {
    const options = (second ?? first) as { title?: string; message: string; buttons?: string[] };
    const view: DialogView = {
      title: options.title ?? '',
      message: options.message,
      buttons: options.buttons ?? ['OK'],
      response: null,
    };
    dialogs.push(view);
    return new Promise((resolve) =>
      unanswered.push({ view, answer: (response) => resolve({ response, checkboxChecked: false }) }),
    );
  },
};

/** The person clicks button `response` of the oldest open message box. */
export function answerDialog(response: number): void {
  const open = unanswered.shift();
  if (!open) throw new Error('No message box is open');
  open.view.response = response;
  open.answer(response);
}
