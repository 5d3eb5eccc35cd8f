/**
 * Which meters are outside their saved limits right now. The Core keeps one list and
 * publishes it whole (`meters/breaches`) whenever it changes, so the window, the web window and the
 * tray show the same breaches. Pure bookkeeping: fed the states and settings the Core already pushes.
 *
 * - A hold time (the `meterLimitHoldSeconds` setting; Grafana's "for") keeps a meter that hovers at its
 *   limit from flipping in and out: a breach begins once the reads have stayed outside for the hold
 *   time, and ends once they have stayed back inside for it. Its `since` is the first read outside;
 *   `insideSince` says it is back inside and waiting out the hold time. A hold time of 0 judges each read.
 * - A changed limit the reading fits ends the breach at once: the person moved the limit on purpose.
 * - A controller that is not online keeps its breaches as last read: a stale reading is no recovery.
 *   A read without a value for the meter (the sensor reported nothing) keeps it too; a read that no
 *   longer has the meter at all ends it (the limit moves with the meter id, meter-ids.ts).
 */
import type {
  ControllerState,
  LimitBreach,
  MeterReading,
  MeterThreshold,
  Settings,
} from '../../../src-preload/model';

/** The side a reading is on, or null when it is inside its limits. */
export function breachSide(value: number, threshold: MeterThreshold): 'above' | 'below' | null {
  if (threshold.max !== null && value > threshold.max) return 'above';
  if (threshold.min !== null && value < threshold.min) return 'below';
  return null;
}

/** A canonical value in the unit the person chose (°F for temperatures when asked). */
export function shownValue(
  value: number,
  unit: MeterReading['unit'],
  temperature: Settings['temperatureUnit'],
): number {
  return unit === '°C' && temperature === 'F' ? (value * 9) / 5 + 32 : value;
}

/** The unit as the person sees it: °F for temperatures when chosen. */
export function shownUnit(unit: MeterReading['unit'], temperature: Settings['temperatureUnit']): string {
  return unit === '°C' && temperature === 'F' ? '°F' : unit;
}

/** "Sensor 1 temperature above the maximum of 86 °F" (no reading in it: it changes every poll). */
export function breachWords(breach: LimitBreach, temperature: Settings['temperatureUnit']): string {
  const limit = Number(shownValue(breach.limit, breach.unit, temperature).toPrecision(4));
  const unit = shownUnit(breach.unit, temperature);
  const side = breach.side === 'above' ? 'above the maximum' : 'below the minimum';
  return `${breach.name} ${side} of ${limit}${unit ? ` ${unit}` : ''}`;
}

const mark = (controllerId: string, key: string) => `${controllerId}\u0000${key}`;

/** The reads of one meter since they last changed side: which side (null: inside) and since when. */
interface Streak {
  side: 'above' | 'below' | null;
  since: number;
}

export class LimitWatch {
  readonly #thresholds: () => readonly MeterThreshold[];
  readonly #holdMs: () => number;
  readonly #now: () => number;
  readonly #emit: (breaches: LimitBreach[]) => void;
  /** The latest state of each controller (what settings changes are judged against). */
  readonly #states = new Map<string, ControllerState>();
  readonly #breaches = new Map<string, LimitBreach>();
  readonly #streaks = new Map<string, Streak>();
  /** Each meter's limits as last seen, to tell a moved limit from the same one. */
  #limits: Map<string, string>;
  #published = '[]';

  constructor(options: {
    thresholds: () => readonly MeterThreshold[];
    /** How long reads must stay on the other side before a breach begins or ends (0: at once). */
    holdMs?: () => number;
    now: () => number;
    emit: (breaches: LimitBreach[]) => void;
  }) {
    this.#thresholds = options.thresholds;
    this.#holdMs = options.holdMs ?? (() => 0);
    this.#now = options.now;
    this.#emit = options.emit;
    this.#limits = this.#currentLimits();
  }

  #currentLimits(): Map<string, string> {
    return new Map(
      this.#thresholds().map((t) => [mark(t.controllerId, t.key), JSON.stringify([t.min, t.max])]),
    );
  }

  /** Every current breach, in the order they began. */
  list(): LimitBreach[] {
    return [...this.#breaches.values()].sort((a, b) => a.since - b.since);
  }

  /** A controller's state was pushed. */
  state(state: ControllerState): void {
    this.#states.set(state.id, state);
    this.#judge(state);
    this.#publish();
  }

  /** The settings changed: limits may have been set, moved or removed. */
  settings(): void {
    const limits = this.#currentLimits();
    for (const key of [...this.#breaches.keys()]) if (!limits.has(key)) this.#breaches.delete(key);
    // A moved limit starts its meter's reads afresh, and ends at once a breach the reading now fits.
    for (const threshold of this.#thresholds()) {
      const key = mark(threshold.controllerId, threshold.key);
      if (this.#limits.get(key) === limits.get(key)) continue;
      this.#streaks.delete(key);
      const value = this.#states
        .get(threshold.controllerId)
        ?.meters?.find((m) => m.key === threshold.key)?.value;
      if (typeof value === 'number' && breachSide(value, threshold) === null) this.#breaches.delete(key);
    }
    this.#limits = limits;
    for (const state of this.#states.values()) this.#judge(state);
    this.#publish();
  }

  /** The saved controllers changed: forget the removed ones. */
  controllers(ids: readonly string[]): void {
    const kept = new Set(ids);
    for (const id of [...this.#states.keys()]) if (!kept.has(id)) this.#states.delete(id);
    for (const [key, breach] of [...this.#breaches])
      if (!kept.has(breach.controllerId)) {
        this.#breaches.delete(key);
        this.#streaks.delete(key);
      }
    this.#publish();
  }

  #judge(state: ControllerState): void {
    if (state.status !== 'online' || state.meters === null) return;
    const thresholds = this.#thresholds().filter((t) => t.controllerId === state.id);
    const limited = new Set(thresholds.map((t) => t.key));
    for (const [key, breach] of [...this.#breaches])
      if (breach.controllerId === state.id && !limited.has(breach.key)) this.#breaches.delete(key);
    const at = state.lastUpdate ?? this.#now();
    const hold = this.#holdMs();
    for (const threshold of thresholds) {
      const key = mark(state.id, threshold.key);
      const reading = state.meters.find((m) => m.key === threshold.key);
      if (!reading) {
        this.#breaches.delete(key);
        this.#streaks.delete(key);
        continue;
      }
      if (reading.value === null || !Number.isFinite(reading.value)) continue;
      const side = breachSide(reading.value, threshold);
      let streak = this.#streaks.get(key);
      if (!streak || streak.side !== side) {
        streak = { side, since: at };
        this.#streaks.set(key, streak);
      }
      const held = at - streak.since >= hold;
      const before = this.#breaches.get(key);
      if (side === null) {
        if (!before) continue;
        if (held) this.#breaches.delete(key);
        else this.#breaches.set(key, { ...before, insideSince: streak.since });
        continue;
      }
      if (!before && !held) continue;
      this.#breaches.set(key, {
        controllerId: state.id,
        key: threshold.key,
        name: reading.name,
        unit: reading.unit,
        side,
        value: reading.value,
        limit: side === 'above' ? threshold.max! : threshold.min!,
        since: before && before.side === side ? before.since : streak.since,
        insideSince: null,
      });
    }
  }

  #publish(): void {
    const list = this.list();
    const json = JSON.stringify(list);
    if (json === this.#published) return;
    this.#published = json;
    this.#emit(list);
  }
}
