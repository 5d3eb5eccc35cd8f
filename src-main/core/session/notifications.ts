/**
 * Which native notifications to show, decided from state changes alone (no I/O): a shell delivers them
 * through the `notify` port. Each kind follows its setting.
 *
 * - Offline/online: only for a controller seen online during this run (a unit that is simply off at
 *   start is shown in the window, not announced), once per episode. A network failure is announced
 *   after two failed polls in a row, so one lost answer on a busy network stays quiet; a wrong password,
 *   the API switched off or a changed certificate are announced at once. Recovery is announced only
 *   after an announced failure.
 * - Outside changes: one notice per observed change.
 * - Meter thresholds: when a reading leaves [min, max]; again only after it came back inside.
 */
import type { ControllerState, ControllerStatus, MeterThreshold, Settings } from '../../../src-preload/model';
import { statusSentence } from '../../../src-preload/words';

export interface Notice {
  title: string;
  body: string;
}

const TROUBLE: ReadonlySet<ControllerStatus> = new Set([
  'offline',
  'error',
  'auth_failed',
  'api_disabled',
  'tls_changed',
]);
const FLAPPING: ReadonlySet<ControllerStatus> = new Set(['offline', 'error']);

export class NotificationDecider {
  readonly #seenOnline = new Set<string>();
  readonly #announced = new Set<string>();
  readonly #outside = new Set<string>();

  /** After a poll: `failures` is the number of failed polls in a row. */
  status(name: string, state: ControllerState, failures: number, settings: Settings): Notice[] {
    const id = state.id;
    if (state.status === 'online') {
      this.#seenOnline.add(id);
      if (!this.#announced.delete(id) || !settings.notifications.offline) return [];
      return [{ title: `${name} is back online`, body: `Plugboard reaches ${name} again.` }];
    }
    if (!TROUBLE.has(state.status) || !this.#seenOnline.has(id) || this.#announced.has(id)) return [];
    if (FLAPPING.has(state.status) && failures < 2) return [];
    this.#announced.add(id);
    if (!settings.notifications.offline) return [];
    return [
      {
        title: statusSentence(name, state.status),
        body: state.problem?.message ?? `Plugboard cannot reach ${name}.`,
      },
    ];
  }

  /** An outlet changed outside Plugboard (`what` e.g. "Outlet 3 (Scope) switched off"). */
  outsideChange(name: string, what: string, settings: Settings): Notice[] {
    if (!settings.notifications.outsideChanges) return [];
    return [{ title: `${name}: changed outside Plugboard`, body: `${what}.` }];
  }

  /** After meters were read. */
  meters(name: string, state: ControllerState, settings: Settings): Notice[] {
    const notices: Notice[] = [];
    for (const threshold of settings.meterThresholds) {
      if (threshold.controllerId !== state.id) continue;
      const reading = state.meters?.find((m) => m.key === threshold.key);
      const marker = `${state.id}\u0000${threshold.key}`;
      if (!reading || reading.value === null) continue;
      const breach = describeBreach(reading.value, threshold);
      if (breach === null) {
        this.#outside.delete(marker);
        continue;
      }
      if (this.#outside.has(marker)) continue;
      this.#outside.add(marker);
      if (!settings.notifications.meterThresholds) continue;
      const unit = reading.unit ? ` ${reading.unit}` : '';
      notices.push({
        title: `${name}: ${reading.name} out of range`,
        body: `${reading.name} reads ${format(reading.value)}${unit}, ${breach}${unit}.`,
      });
    }
    return notices;
  }

  /** Forget a removed controller. */
  forget(id: string): void {
    this.#seenOnline.delete(id);
    this.#announced.delete(id);
    for (const marker of [...this.#outside])
      if (marker.startsWith(`${id}\u0000`)) this.#outside.delete(marker);
  }
}

function describeBreach(value: number, threshold: MeterThreshold): string | null {
  if (threshold.min !== null && value < threshold.min) return `below the minimum of ${format(threshold.min)}`;
  if (threshold.max !== null && value > threshold.max) return `above the maximum of ${format(threshold.max)}`;
  return null;
}

function format(value: number): string {
  return Number(value.toPrecision(4)).toString();
}
