import type { Controller } from './controller';
import type { Json } from './http-error';
import type { MeterKey, Meters } from './meters';
import { OBJECT_MODEL_METERS } from './meters-object-model';
import { array, type Container, map, object, readOnly } from './tree';

/** Each entry an object of read-only fields, in the order the entry lists them. */
function entriesNode(values: () => Record<string, object>): Container {
  return map(() =>
    Object.entries(values()).map(([key, entry]) => [
      key,
      object(() =>
        Object.fromEntries(
          Object.entries(entry).map(([field, value]) => [field, readOnly(() => value as Json)]),
        ),
      ),
    ]),
  );
}

/** The bus quantities, named as rest.html's `buses.N.<quantity>` meter ids name them. */
const BUS_QUANTITIES = ['voltage', 'current', 'total_energy'] as const;

/** The simulated meters measure one bus (`buses.0.…`). */
const BUS_COUNT = 1;

/** The object-model id fed by a simple meter key (`buses.0.voltage` → `mains_voltage`). */
function objectModelId(key: MeterKey): string | undefined {
  return Object.entries(OBJECT_MODEL_METERS).find(([, description]) => description.source === key)?.[0];
}

/**
 * `meter/buses/`: the bus list, zero-indexed; each bus shows its own readings, the same values as the
 * meter map's entries for that bus (`meter/values/buses.0.voltage/` or, in the object-model map, the
 * platform id fed by it), so a client that walks the tree from `meter/` finds them.
 */
function busesNode(c: Controller, meters: Meters): Container {
  const reading = (key: MeterKey): Json => {
    if (!c.objectMeters) return meters.values()[key].value;
    const id = objectModelId(key);
    return id === undefined ? null : (c.objectMeters.values()[id]?.value ?? null);
  };
  return array(() =>
    Array.from({ length: BUS_COUNT }, (_, bus) =>
      object(() =>
        Object.fromEntries(
          BUS_QUANTITIES.map((quantity) => [
            quantity,
            readOnly(() => reading(`buses.${bus}.${quantity}` as MeterKey)),
          ]),
        ),
      ),
    ),
  );
}

/** `meter/`: the meter map (`values`) and the bus list (`buses`). */
export function meterNode(c: Controller, meters: Meters): Container {
  const { objectMeters } = c;
  return object(() => ({
    values: entriesNode(() => (objectMeters ? objectMeters.values() : meters.values())),
    buses: busesNode(c, meters),
  }));
}
