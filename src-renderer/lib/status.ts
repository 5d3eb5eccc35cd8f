import type { ControllerState, ControllerStatus } from '../../src-preload/model';

/** The words for a controller's status, as shown next to its dot and read by screen readers. */
export const STATUS_TEXT: Record<ControllerStatus, string> = {
  connecting: 'connecting',
  online: 'online',
  offline: 'offline',
  auth_failed: 'auth problem',
  api_disabled: 'API disabled',
  tls_changed: 'certificate changed',
  rebooting: 'rebooting',
  error: 'error',
};

const STATUS_PHRASE: Record<ControllerStatus, string> = {
  connecting: 'is connecting',
  online: 'is online',
  offline: 'is offline',
  auth_failed: 'does not accept the saved login',
  api_disabled: 'has its REST-style API switched off',
  tls_changed: 'presents a different certificate',
  rebooting: 'is rebooting',
  error: 'answers with errors',
};

/** "Bench A is offline", "The controller does not accept the saved login": a status in a sentence. */
export function statusSentence(subject: string, status: ControllerStatus): string {
  return `${subject} ${STATUS_PHRASE[status]}`;
}

/** The status of a controller whose live state may not have arrived yet. */
export function statusOf(state: ControllerState | undefined): ControllerStatus {
  return state?.status ?? 'connecting';
}

/** A poll result older than this many intervals (and at least 10 s) is shown as stale. */
const STALE_INTERVALS = 3;

/** Milliseconds since the last good poll when that is long enough to distrust the display, else null. */
export function staleFor(
  state: ControllerState | undefined,
  pollIntervalMs: number,
  now: number,
): number | null {
  if (!state?.lastUpdate) return null;
  const age = now - state.lastUpdate;
  return age > Math.max(STALE_INTERVALS * pollIntervalMs, 10_000) ? age : null;
}
