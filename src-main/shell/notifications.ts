import type { Notice } from '../core/index';
import type { Logger } from '../shared/logging';

/** What the notifier needs of Electron's Notification class (a fake in tests). */
export interface NotificationClass {
  isSupported(): boolean;
  new (options: { title: string; body: string; icon?: string }): { show(): void };
}

/**
 * The Core's `notify` port for Electron: a native notification per notice. The Core decides which
 * notices to send (following the settings); this only shows them, quietly doing nothing where the
 * desktop has no notification service.
 */
export function electronNotifier(
  Notification: NotificationClass,
  log: Logger,
  icon?: string,
): (notice: Notice) => void {
  return (notice) => {
    if (!Notification.isSupported()) return;
    try {
      new Notification({ title: notice.title, body: notice.body, ...(icon ? { icon } : {}) }).show();
    } catch (error) {
      log('A notification could not be shown', error);
    }
  };
}
