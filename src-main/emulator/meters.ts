import type { Relay } from './relay';

/** The meter keys a metered controller serves under `meter/values/`, in this order. */
export const METER_KEYS = [
  'buses.0.voltage',
  'buses.0.current',
  'buses.0.total_energy',
  'environment.temperature',
  'sensors.0.temperature',
  'sensors.0.relative_humidity',
] as const;
export type MeterKey = (typeof METER_KEYS)[number];

/** One `meter/values/<key>/` object. */
export interface MeterEntry {
  name: string;
  value: number | null;
  quantity: string;
  bus: number | null;
}

/** Real units report a zero current as the smallest float32 denormal. */
export const ZERO_CURRENT = 1.401298464324817e-45;
const MAINS_VOLTS = 120;
const KELVIN = 273.16;
/** Default per-outlet loads in amperes (repeated for controllers with more outlets). */
const LOAD_PATTERN = [0.42, 0.18, 1.05, 0.07, 0.63, 0.31, 0.88, 0.25];

const DESCRIPTIONS: Record<MeterKey, Omit<MeterEntry, 'value'>> = {
  'buses.0.voltage': { name: 'AC voltage', quantity: 'voltage', bus: 0 },
  'buses.0.current': { name: 'AC current', quantity: 'current', bus: 0 },
  'buses.0.total_energy': { name: 'Total energy', quantity: 'energy', bus: 0 },
  'environment.temperature': { name: 'Internal temperature', quantity: 'temperature', bus: null },
  'sensors.0.temperature': { name: 'Sensor 1 temperature', quantity: 'temperature', bus: null },
  'sensors.0.relative_humidity': { name: 'Sensor 1 humidity', quantity: 'relative_humidity', bus: null },
};

export function isMeterKey(key: string): key is MeterKey {
  return (METER_KEYS as readonly string[]).includes(key);
}

const wave = (t: number, periodSeconds: number, phase = 0): number =>
  Math.sin((2 * Math.PI * t) / periodSeconds + phase);
const noise = (amplitude: number): number => (Math.random() * 2 - 1) * amplitude;

/**
 * Simulated meters that stay plausible and alive: the voltage wanders around mains, the current is the
 * sum of the loads of the outlets that are physically on, energy (joules) accumulates from the power
 * actually drawn, temperatures (kelvin) and humidity (%) drift slowly.
 */
export class Meters {
  private readonly loads: number[];
  private readonly overrides = new Map<MeterKey, number | null>();
  private energy = 1.2e8;
  private energyAt = Date.now();
  private readonly unsubscribe: () => void;

  constructor(private readonly relay: Relay) {
    this.loads = relay.outlets.map((_, i) => LOAD_PATTERN[i % LOAD_PATTERN.length] ?? 0.1);
    // Integrate up to the moment a relay changes, so energy follows what was really drawn.
    this.unsubscribe = relay.onPhysicalChange(() => this.integrate());
  }

  /** Per-outlet load in amperes (index 0 = outlet 1). */
  loadsSnapshot(): number[] {
    return [...this.loads];
  }

  setLoad(index: number, amps: number): void {
    if (index < 0 || index >= this.loads.length) throw new RangeError(`No outlet ${index}`);
    if (!Number.isFinite(amps) || amps < 0) throw new RangeError('A load is a finite number of amperes ≥ 0');
    this.integrate();
    this.loads[index] = amps;
  }

  /** Pin a meter to a value (null = the sensor reports no value). For total energy: restart the count there. */
  set(key: MeterKey, value: number | null): void {
    if (key === 'buses.0.total_energy' && value !== null) {
      this.energy = value;
      this.energyAt = Date.now();
      this.overrides.delete(key);
      return;
    }
    this.overrides.set(key, value);
  }

  /** Let a pinned meter follow the simulation again. */
  reset(key: MeterKey): void {
    this.overrides.delete(key);
  }

  values(): Record<MeterKey, MeterEntry> {
    this.integrate();
    const t = Date.now() / 1000;
    const volts = this.voltage(t);
    const amps = this.nominalCurrent() * (volts / MAINS_VOLTS);
    const live: Record<MeterKey, number> = {
      'buses.0.voltage': Math.fround(volts),
      'buses.0.current': amps > 0 ? Math.fround(amps * (1 + noise(0.01))) : ZERO_CURRENT,
      'buses.0.total_energy': Math.round(this.energy * 10) / 10,
      'environment.temperature': Math.fround(KELVIN + 36 + 0.6 * wave(t, 420) + 0.15 * amps + noise(0.05)),
      'sensors.0.temperature': Math.fround(KELVIN + 22.4 + 0.7 * wave(t, 600) + noise(0.05)),
      'sensors.0.relative_humidity': Math.fround(
        Math.min(100, Math.max(0, 42 + 4 * wave(t, 900, 1) + noise(0.3))),
      ),
    };
    const result = {} as Record<MeterKey, MeterEntry>;
    for (const key of METER_KEYS) {
      const pinned = this.overrides.get(key) ?? null;
      const value = !this.overrides.has(key)
        ? live[key]
        : key === 'buses.0.current' && pinned === 0
          ? ZERO_CURRENT
          : pinned;
      result[key] = { ...DESCRIPTIONS[key], value };
    }
    return result;
  }

  dispose(): void {
    this.unsubscribe();
  }

  private voltage(t: number): number {
    return MAINS_VOLTS + 1.2 * wave(t, 97) + 0.6 * wave(t, 13, 0.5) + noise(0.15);
  }

  private nominalCurrent(): number {
    return this.relay.outlets.reduce(
      (sum, outlet, i) => sum + (outlet.physicalState ? (this.loads[i] ?? 0) : 0),
      0,
    );
  }

  private integrate(): void {
    const now = Date.now();
    const seconds = (now - this.energyAt) / 1000;
    if (seconds > 0) this.energy += MAINS_VOLTS * this.nominalCurrent() * seconds;
    this.energyAt = now;
  }
}
