import type { ControllerState, ControllerStatus, ControllerSummary, Settings } from '../../src-preload/model';

/** The words for a status are shared with the Core (tray, notifications): src-preload/words.ts. */
export { STATUS_TEXT, statusSentence } from '../../src-preload/words';

/** The status of a controller whose live state may not have arrived yet. */
export function statusOf(state: ControllerState | undefined): ControllerStatus {
  return state?.status ?? 'connecting';
}

/**
 * How often a controller's outlets are read at the least: the steady interval, or the safety interval
 * when its unit publishes its changes over MQTT (its outlets are then read on each message and otherwise
 * only that often, so an older reading is no sign of trouble).
 */
export function readIntervalMs(
  summary: Pick<ControllerSummary, 'mqttTopic'> | undefined,
  settings: Pick<Settings, 'pollIntervalMs' | 'unitSafetyPollMs'>,
): number {
  return summary?.mqttTopic
    ? Math.max(settings.pollIntervalMs, settings.unitSafetyPollMs)
    : settings.pollIntervalMs;
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
