import type { Json } from './http-error';
import type { MeterKey, Meters } from './meters';

/**
 * One `meter/values/<id>/` entry in the shape of DLI's object model reference (meter pages) and the
 * LPC9 user's guide: the simple fields, plus history and alarm fields. `value` is `false` where the
 * sensor has no reading.
 */
export interface ObjectModelMeter {
  name: string;
  value: number | false;
  quantity: string;
  bus: number | null;
  custom: boolean;
  internal: boolean;
  expression: string | null;
  in_calibration: boolean;
  supports_calibration: boolean;
  log_history: boolean;
  history_parameters: [number, number][];
  history_subsample_count: number;
  history_time_step: number;
  update_relative_difference: number;
  data_absence_alarm_level: number | null;
  data_absence_alarm_period: number | null;
  lowest_interval_alarm_level: number | null;
  lowest_interval_alarm_period: number | null;
  intervals: { [key: string]: Json }[];
}

interface Description {
  name: string;
  quantity: string;
  internal: boolean;
  /** The simulated meter it reads, or a fixed supply voltage. */
  source: MeterKey | { volts: number };
}

/**
 * Platform-specific ids (the reference names `mains_voltage`, `power_voltage`); which ids an LPC9 uses
 * is not published, so these are a plausible set that differs from the simple `buses.0.…` keys. The
 * second sensor port (`sensors.1.…`) is unplugged: no reading, `false`.
 */
export const OBJECT_MODEL_METERS: Record<string, Description> = {
  mains_voltage: { name: 'AC voltage', quantity: 'voltage', internal: false, source: 'buses.0.voltage' },
  mains_current: { name: 'AC current', quantity: 'current', internal: false, source: 'buses.0.current' },
  total_energy: { name: 'Total energy', quantity: 'energy', internal: false, source: 'buses.0.total_energy' },
  cpu_temperature: {
    name: 'Internal temperature',
    quantity: 'temperature',
    internal: false,
    source: 'environment.temperature',
  },
  power_voltage: { name: '5V supply voltage', quantity: 'voltage', internal: true, source: { volts: 5.02 } },
  relay_voltage: {
    name: 'Relay supply voltage',
    quantity: 'voltage',
    internal: true,
    source: { volts: 12.1 },
  },
  'sensors.0.temperature': {
    name: 'Sensor 1 temperature',
    quantity: 'temperature',
    internal: false,
    source: 'sensors.0.temperature',
  },
  'sensors.0.relative_humidity': {
    name: 'Sensor 1 humidity',
    quantity: 'relative_humidity',
    internal: false,
    source: 'sensors.0.relative_humidity',
  },
  'sensors.1.temperature': {
    name: 'Sensor 2 temperature',
    quantity: 'temperature',
    internal: false,
    source: { volts: Number.NaN },
  },
  'sensors.1.relative_humidity': {
    name: 'Sensor 2 humidity',
    quantity: 'relative_humidity',
    internal: false,
    source: { volts: Number.NaN },
  },
};

export const isObjectModelId = (id: string): boolean => Object.hasOwn(OBJECT_MODEL_METERS, id);

const HISTORY: [number, number][] = [
  [300, 86_400],
  [3600, 1_209_600],
  [86_400, 31_536_000],
];

/** The object-model map: ids above, values from the simulation, pins (device.setMeter) by id. */
export class ObjectModelMeters {
  private readonly pinned = new Map<string, number | null>();

  constructor(private readonly meters: Meters) {}

  pin(id: string, value: number | null): void {
    this.pinned.set(id, value);
  }

  unpin(id: string): void {
    this.pinned.delete(id);
  }

  values(): Record<string, ObjectModelMeter> {
    const simple = this.meters.values();
    const result: Record<string, ObjectModelMeter> = {};
    for (const [id, description] of Object.entries(OBJECT_MODEL_METERS)) {
      const { source } = description;
      const live = typeof source === 'string' ? simple[source].value : source.volts;
      const raw = this.pinned.has(id) ? (this.pinned.get(id) ?? null) : live;
      result[id] = {
        name: description.name,
        value: raw === null || Number.isNaN(raw) ? false : raw,
        quantity: description.quantity,
        bus: null,
        custom: false,
        internal: description.internal,
        expression: null,
        in_calibration: false,
        supports_calibration: !description.internal,
        log_history: !description.internal,
        history_parameters: HISTORY,
        history_subsample_count: 10,
        history_time_step: 300,
        update_relative_difference: 0.01,
        data_absence_alarm_level: null,
        data_absence_alarm_period: null,
        lowest_interval_alarm_level: null,
        lowest_interval_alarm_period: null,
        intervals: [],
      };
    }
    return result;
  }
}
