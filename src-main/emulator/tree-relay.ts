import { canSwitch, outletRule } from './access';
import type { Body } from './body';
import type { Controller } from './controller';
import { badRequest, forbidden, HttpError, locked } from './http-error';
import {
  array,
  boolField,
  type Call,
  type Container,
  type Ctx,
  object,
  parseBoolean,
  parseNumber,
  parseText,
  readOnly,
  writable,
} from './tree';

function outletNode(c: Controller, index: number): Container {
  const { relay } = c;
  const outlet = relay.outlet(index);
  const may = outletRule(index);
  const switching = (field: string, apply: (on: boolean) => void) =>
    writable(
      () => outlet[field === 'state' ? 'state' : 'transientState'],
      (value) => {
        const on = parseBoolean(value, field);
        if (outlet.locked) throw locked(index);
        return () => apply(on);
      },
      may,
    );
  const cycle: Call = {
    kind: 'call',
    userMay: may,
    invoke: () => {
      if (outlet.locked) throw locked(index);
      return relay.cycle(index) ? { status: 204 } : { status: 200, body: false };
    },
  };
  return object(() => ({
    critical: boolField(
      () => outlet.critical,
      (on) => (outlet.critical = on),
      'critical',
    ),
    transient_state: switching('transient_state', (on) => relay.setTransient(index, on)),
    state: switching('state', (on) => relay.setState(index, on)),
    physical_state: readOnly(() => outlet.physicalState),
    name: writable(
      () => outlet.name,
      (value) => {
        const name = parseText(value, 'name', 64);
        return () => (outlet.name = name);
      },
    ),
    locked: readOnly(() => outlet.locked),
    cycle_delay: writable(
      () => outlet.cycleDelay,
      (value) => {
        const seconds = value === null ? null : parseNumber(value, 'cycle_delay', 0, 3600);
        return () => (outlet.cycleDelay = seconds);
      },
    ),
    cycle,
  }));
}

/** `[[[index, state], …]]`: the argument list holding one list of pairs. */
function parsePairs(args: Body, count: number): [number, boolean][] {
  const shape =
    'The body is [[[outlet index, true|false], …]]: one argument, a list of pairs, e.g. [[[0,true],[3,false]]].';
  if (
    args.kind !== 'value' ||
    !Array.isArray(args.value) ||
    args.value.length !== 1 ||
    !Array.isArray(args.value[0])
  ) {
    throw badRequest(shape, 'bad_body');
  }
  const pairs = args.value[0] as unknown[];
  const seen = new Set<number>();
  return pairs.map((pair) => {
    if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[1] !== 'boolean')
      throw badRequest(shape, 'bad_body');
    const index: unknown = pair[0];
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count) {
      throw badRequest(
        `Outlet index ${JSON.stringify(index)} does not exist; indices run from 0 to ${count - 1}.`,
        'bad_value',
      );
    }
    if (seen.has(index)) throw badRequest(`Outlet index ${index} is listed twice.`, 'bad_value');
    seen.add(index);
    return [index, pair[1]];
  });
}

function setOutletTransientStates(c: Controller): Call {
  return {
    kind: 'call',
    checksAccess: true,
    invoke: (args, ctx: Ctx) => {
      const pairs = parsePairs(args, c.relay.count);
      const refused = pairs.filter(([index]) => !canSwitch(ctx, index)).map(([index]) => index);
      if (refused.length > 0) {
        const error = forbidden(`You may not switch outlet ${refused.map((i) => i + 1).join(', ')}.`);
        throw new HttpError(403, error.code, error.message, { outlets: refused });
      }
      const lockedOutlets = pairs.filter(([index]) => c.relay.outlet(index).locked).map(([index]) => index);
      if (lockedOutlets.length > 0) {
        throw new HttpError(
          409,
          'locked',
          `Outlet ${lockedOutlets.map((i) => i + 1).join(', ')} is locked; nothing was switched.`,
          {
            outlets: lockedOutlets,
          },
        );
      }
      // Offs first, then ons, all at once: this call exists to switch as simultaneously as possible.
      for (const [index, on] of pairs) if (!on) c.relay.setTransient(index, false, false);
      for (const [index, on] of pairs) if (on) c.relay.setTransient(index, true, false);
      return { status: 204 };
    },
  };
}

export function relayNode(c: Controller): Container {
  const { relay } = c;
  return object(() => ({
    name: writable(
      () => c.config.name,
      (value) => {
        const name = parseText(value, 'name', 64);
        return () => (c.config.name = name);
      },
    ),
    online: readOnly(() => true),
    model: readOnly(() => c.config.model),
    version: readOnly(() => c.config.relayFirmware),
    outlets: array(() => relay.outlets.map((_, i) => outletNode(c, i))),
    set_outlet_transient_states: c.features.simultaneousSwitching && setOutletTransientStates(c),
    sequence_delay: writable(
      () => relay.sequenceDelay,
      (value) => {
        const seconds = parseNumber(value, 'sequence_delay', 0, 60);
        return () => (relay.sequenceDelay = seconds);
      },
    ),
    cycle_delay: writable(
      () => relay.cycleDelay,
      (value) => {
        const seconds = parseNumber(value, 'cycle_delay', 0, 3600);
        return () => (relay.cycleDelay = seconds);
      },
    ),
  }));
}
