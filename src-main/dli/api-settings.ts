/**
 * Outlet and relay settings: an outlet's own cycle delay and critical flag (`relay/outlets/N/cycle_delay/`,
 * `…/critical/`), the relay's default cycle delay and on-sequence delay (`relay/cycle_delay/`,
 * `relay/sequence_delay/`). Each is one PUT of a JSON value; real units answer 204 (reference: "Relay
 * settings", sdss/lvmnps). Only administrators may write them.
 *
 * Bounds, checked before anything is sent: whole seconds (the INDI driver reads `relay/cycle_delay` as an
 * integer; the provisioning scripts write `value=1`), a cycle delay from 1 s to 3600 s (an off-time of 0 is
 * no cycle; an hour is longer than any real power cycle), an on-sequence delay from 0 to 60 s (observed
 * settings are 1–3 s; a unit may refuse less than its `relay/min_sequence_delay`, which then comes back as
 * BAD_INPUT with the unit's reason).
 */
import type { Connection, Scope } from './connection';
import { PlugboardError } from '../shared/errors';
import { errorForStatus } from './http-errors';
import { apiIndexOf } from './outlet-numbers';
import { outletCountIfReadable } from './shared-reads';
import type { CallOptions } from './types';

export const CYCLE_DELAY_RANGE = { min: 1, max: 3600 } as const;
export const SEQUENCE_DELAY_RANGE = { min: 0, max: 60 } as const;

/** An outlet's settings to change; what is left out stays as it is. */
export interface OutletSettings {
  /** Seconds off when this outlet is cycled; null = use the relay's cycle delay. */
  cycleDelay?: number | null;
  critical?: boolean;
}

/** The relay's timing to change, in seconds; what is left out stays as it is. */
export interface RelayTimingChange {
  cycleDelay?: number;
  sequenceDelay?: number;
}

/** Throws BAD_INPUT unless `value` is whole seconds within `range`. */
export function checkSeconds(value: unknown, what: string, range: { min: number; max: number }): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < range.min || value > range.max) {
    throw new PlugboardError(
      'BAD_INPUT',
      `${what} must be a whole number of seconds from ${range.min} to ${range.max}; ${JSON.stringify(value) ?? String(value)} is not.`,
      { value: typeof value === 'number' ? value : String(value) },
      { action: `Give whole seconds from ${range.min} to ${range.max}.` },
    );
  }
  return value;
}

function nothingToChange(what: string): PlugboardError {
  return new PlugboardError('BAD_INPUT', `Nothing to change: name at least one ${what}.`, undefined, {
    action: `Give at least one ${what}.`,
  });
}

export class SettingsApi {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  /** Change an outlet's cycle delay and/or critical flag: one PUT per setting, the cycle delay first. */
  configureOutlet(outlet: number, settings: OutletSettings, options?: CallOptions): Promise<void> {
    const c = this.#connection;
    const writes: { field: string; value: number | boolean | null; words: string }[] = [];
    try {
      if (settings.cycleDelay !== undefined) {
        const value =
          settings.cycleDelay === null
            ? null
            : checkSeconds(settings.cycleDelay, 'A cycle delay', CYCLE_DELAY_RANGE);
        writes.push({
          field: 'cycle_delay',
          value,
          words: value === null ? 'use the relay cycle delay for' : `set the cycle delay of`,
        });
      }
      if (settings.critical !== undefined) {
        if (typeof settings.critical !== 'boolean')
          throw new PlugboardError('BAD_INPUT', 'Critical is either on or off.');
        writes.push({
          field: 'critical',
          value: settings.critical,
          words: settings.critical ? 'mark as critical' : 'unmark as critical',
        });
      }
      if (writes.length === 0) throw nothingToChange('setting (cycle delay or critical)');
    } catch (error) {
      return Promise.reject(error);
    }
    return c.run(options, async (scope) => {
      const index = apiIndexOf(outlet, await outletCountIfReadable(c, scope), c.controller);
      for (const write of writes) {
        await this.#put(
          scope,
          `relay/outlets/${index}/${write.field}/`,
          write.value,
          `${write.words} ${c.outletLabel(outlet)}`,
        );
      }
    });
  }

  /** Change the relay's default cycle delay and/or its on-sequence delay. */
  setRelayTiming(timing: RelayTimingChange, options?: CallOptions): Promise<void> {
    const c = this.#connection;
    const writes: { path: string; value: number; words: string }[] = [];
    try {
      if (timing.cycleDelay !== undefined) {
        const value = checkSeconds(timing.cycleDelay, 'A cycle delay', CYCLE_DELAY_RANGE);
        writes.push({ path: 'relay/cycle_delay/', value, words: 'set the relay cycle delay' });
      }
      if (timing.sequenceDelay !== undefined) {
        const value = checkSeconds(timing.sequenceDelay, 'A sequence delay', SEQUENCE_DELAY_RANGE);
        writes.push({ path: 'relay/sequence_delay/', value, words: 'set the on-sequence delay' });
      }
      if (writes.length === 0) throw nothingToChange('delay (cycle delay or sequence delay)');
    } catch (error) {
      return Promise.reject(error);
    }
    return c.run(options, async (scope) => {
      for (const write of writes) await this.#put(scope, write.path, write.value, write.words);
    });
  }

  async #put(scope: Scope, path: string, value: number | boolean | null, action: string): Promise<void> {
    const c = this.#connection;
    // JSON, not a form: null must arrive as null, not as the text "null".
    const response = await scope.request({ method: 'PUT', path, json: value, guard: 'csrf' });
    if (response.status === 204 || response.status === 200) return;
    throw errorForStatus(
      response,
      c.context(action, {
        forbidden: `Only administrators can ${action} on ${c.controller}, and ${c.notAdmin}`,
        forbiddenAction: 'Log in as an administrator.',
      }),
    );
  }
}
