import type { Core } from '../core/index';

/** The part of a BrowserWindow the event forwarder needs (a fake in tests). */
export interface EventTarget {
  isDestroyed(): boolean;
  webContents: { getURL(): string; send(channel: string, payload: unknown): void };
}

/**
 * Push every Core event to the app's windows, on the event's own channel name (the preload listens
 * on exactly those). A window showing anything but the app's page gets nothing.
 * Returns the unsubscribe function.
 */
export function forwardEvents(
  core: Pick<Core, 'subscribe'>,
  windows: () => Iterable<EventTarget>,
  isAppUrl: (url: string) => boolean,
) {
  return core.subscribe((name, payload) => {
    for (const window of windows()) {
      if (window.isDestroyed() || !isAppUrl(window.webContents.getURL())) continue;
      window.webContents.send(name, payload);
    }
  });
}
