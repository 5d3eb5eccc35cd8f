/** The parts of a window whose visibility the Core follows (a fake in tests). */
export interface VisibilitySource {
  on(event: 'show' | 'hide' | 'minimize' | 'restore' | 'closed', listener: () => void): unknown;
  isVisible(): boolean;
  isMinimized(): boolean;
  isDestroyed(): boolean;
}

/**
 * Report whether the window can be seen (shown and not minimised) whenever that may have changed:
 * while nobody looks, the Core polls only what the tray shows.
 */
export function watchVisibility(window: VisibilitySource, report: (visible: boolean) => void): void {
  const update = () => report(!window.isDestroyed() && window.isVisible() && !window.isMinimized());
  for (const event of ['show', 'hide', 'minimize', 'restore'] as const) window.on(event, update);
  window.on('closed', () => report(false));
}
