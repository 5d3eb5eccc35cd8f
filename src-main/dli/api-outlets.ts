/** Outlets: read all in one request; switch one, several or all; cycle; switch simultaneously; rename. */
import * as v from 'valibot';
import type { OutletFailure } from '../../src-preload/model';
import type { Connection, Scope } from './connection';
import { PlugboardError } from '../shared/errors';
import { supports } from './firmware';
import { errorForStatus, parseAnswer } from './http-errors';
import { apiIndexOf, outletSegment, transientStatePairs } from './outlet-numbers';
import { multiStatusFailures, outletRefusal, wholeRefusal } from './outlet-results';
import {
  ensureFirmware,
  outletCountIfReadable,
  readOutlets,
  readSomeOutlets,
  unlessForbidden,
} from './shared-reads';
import { hasUnsafeCharacters } from '../shared/text';
import type { HttpResponse } from './transport';
import type { CallOptions, Outlet, OutletActionResult, OutletSelection, SwitchResult } from './types';

export interface SetStateOptions extends CallOptions {
  /** Set the transient state (reverts after a reboot) instead of the persistent one. */
  transient?: boolean;
}

export class OutletsApi {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  /** Every outlet with its states, name, lock and cycle delay: one request (`GET relay/outlets/`). */
  list(options?: CallOptions): Promise<Outlet[]> {
    return this.#connection.run(options, (scope) => readOutlets(this.#connection, scope));
  }

  /** Some outlets (1-based numbers), one small request each (`GET relay/outlets/N/`), not the whole list. */
  read(numbers: readonly number[], options?: CallOptions): Promise<Outlet[]> {
    return this.#connection.run(options, (scope) => readSomeOutlets(this.#connection, scope, numbers));
  }

  /** Switch outlets on or off (persistent `state`, or `transient_state`): one request, matrix URI for several. */
  setState(selection: OutletSelection, on: boolean, options?: SetStateOptions): Promise<OutletActionResult> {
    const c = this.#connection;
    return c.run(options, async (scope) => {
      const count = await outletCountIfReadable(c, scope);
      return this.#write(scope, selection, options?.transient ? 'transient_state' : 'state', on, count);
    });
  }

  /**
   * Power-cycle one outlet. `cycled` is false when the outlet was off (the controller then does nothing).
   * A locked outlet fails with LOCKED.
   */
  cycle(outlet: number, options?: CallOptions): Promise<{ cycled: boolean }> {
    const c = this.#connection;
    return c.run(options, async (scope) =>
      this.#cycleOne(scope, outlet, await outletCountIfReadable(c, scope)),
    );
  }

  /**
   * Power-cycle several outlets with one request (a matrix POST on `relay/outlets/=i,j/cycle/`).
   * Outlets that refused (locked, no access) are in `failed`; outlets that were off, which the controller
   * leaves alone, are in `notCycled`.
   */
  cycleSeveral(
    outlets: readonly number[],
    options?: CallOptions,
  ): Promise<OutletActionResult & { notCycled: number[] }> {
    const c = this.#connection;
    return c.run(options, async (scope) => {
      const count = await outletCountIfReadable(c, scope);
      const segment = outletSegment(outlets, count, c.controller);
      const numbers = segment.numbers ?? [];
      if (!segment.matrix) {
        const outlet = numbers[0]!;
        try {
          const { cycled } = await this.#cycleOne(scope, outlet, count);
          return { requested: numbers, failed: [], notCycled: cycled ? [] : [outlet] };
        } catch (error) {
          if (!(error instanceof PlugboardError) || (error.code !== 'LOCKED' && error.code !== 'FORBIDDEN'))
            throw error;
          return { requested: numbers, failed: [{ outlet, error: error.toContractError() }], notCycled: [] };
        }
      }
      const response = await scope.request({
        method: 'POST',
        path: `relay/outlets/${segment.segment}/cycle/`,
        guard: 'csrf',
      });
      if (response.status !== 207) {
        throw errorForStatus(response, c.context(`cycle ${describeSelection(numbers, c)}`));
      }
      const failed = multiStatusFailures(c, response, numbers, 'cycled');
      const entries = parseAnswer(response, v.array(v.unknown()), c.context('cycle outlets'));
      const notCycled = numbers.filter((_, i) => entries[i] === false);
      return { requested: numbers, failed, notCycled };
    });
  }

  async #cycleOne(scope: Scope, outlet: number, count: number | null): Promise<{ cycled: boolean }> {
    const c = this.#connection;
    const index = apiIndexOf(outlet, count, c.controller);
    const action = `cycle ${c.outletLabel(outlet)}`;
    const response = await scope.request({
      method: 'POST',
      path: `relay/outlets/${index}/cycle/`,
      guard: 'csrf',
    });
    if (response.status === 204) return { cycled: true };
    if (response.status === 200) {
      const answer =
        response.body.trim() === '' ? true : parseAnswer(response, v.unknown(), c.context(action));
      return { cycled: answer !== false };
    }
    if (response.status === 409 || response.status === 403) {
      const refusal = outletRefusal(c, outlet, response.status, 'cycled');
      throw new PlugboardError(refusal.code, refusal.message, { outlet }, { action: refusal.action });
    }
    throw errorForStatus(response, c.context(action));
  }

  /**
   * Set the transient state of several outlets as simultaneously as the firmware allows: one
   * `set_outlet_transient_states` call (≥ 1.10.11; all or nothing), else one matrix PUT per target value.
   */
  switch(changes: readonly { outlet: number; on: boolean }[], options?: CallOptions): Promise<SwitchResult> {
    const c = this.#connection;
    return c.run(options, (scope) =>
      scope.exclusive(async (slot) => {
        const count = await outletCountIfReadable(c, slot);
        const wanted = dedupe(changes);
        const requested = wanted.map((change) => change.outlet).sort((a, b) => a - b);
        // null: a narrow access token may switch but not read the firmware. Then try the call, and a
        // controller without it (firmware before 1.10.11) answers 404: use the fallback.
        const firmware = await unlessForbidden(ensureFirmware(c, slot));
        if (firmware === null || supports(firmware, 'simultaneousSwitching')) {
          const response = await slot.request({
            method: 'POST',
            path: 'relay/set_outlet_transient_states/',
            json: transientStatePairs(wanted, count, c.controller),
            guard: 'csrf',
          });
          if (response.status === 200 || response.status === 204) {
            return { requested, failed: [], simultaneous: true };
          }
          if (firmware !== null || response.status !== 404) {
            throw wholeRefusal(c, response, 'switch several outlets');
          }
        }
        const failed: OutletFailure[] = [];
        for (const on of [true, false]) {
          const outlets = wanted.filter((change) => change.on === on).map((change) => change.outlet);
          if (outlets.length)
            failed.push(...(await this.#write(slot, outlets, 'transient_state', on, count)).failed);
        }
        return { requested, failed, simultaneous: false };
      }),
    );
  }

  /**
   * Set the saved (persistent) state of several outlets, each to its own value: one matrix PUT of
   * `state` per target value (`relay/outlets/=i,j/state/`), so at most two requests (those to switch on,
   * then those to switch off). The REST API has no call that saves different values in one request.
   */
  setStates(
    changes: readonly { outlet: number; on: boolean }[],
    options?: CallOptions,
  ): Promise<SwitchResult> {
    const c = this.#connection;
    return c.run(options, (scope) =>
      scope.exclusive(async (slot) => {
        const count = await outletCountIfReadable(c, slot);
        const wanted = dedupe(changes);
        const requested = wanted.map((change) => change.outlet).sort((a, b) => a - b);
        const failed: OutletFailure[] = [];
        let sent = false;
        for (const on of [true, false]) {
          const outlets = wanted.filter((change) => change.on === on).map((change) => change.outlet);
          if (!outlets.length) continue;
          try {
            failed.push(...(await this.#write(slot, outlets, 'state', on, count)).failed);
          } catch (error) {
            // The first request was carried out: a refused second one fails only its own outlets. One
            // whose answer never came is left to the caller (its outlets may have switched).
            if (!sent || !(error instanceof PlugboardError) || error.detail?.unanswered === true) throw error;
            failed.push(...outlets.map((outlet) => ({ outlet, error: error.toContractError() })));
          }
          sent = true;
        }
        return { requested, failed, simultaneous: false };
      }),
    );
  }

  /** Rename one outlet (`relay/outlets/N/name/`). */
  rename(outlet: number, name: string, options?: CallOptions): Promise<void> {
    const c = this.#connection;
    const clean = name.trim();
    if (!clean || clean.length > 64 || hasUnsafeCharacters(clean)) {
      return Promise.reject(
        new PlugboardError(
          'BAD_INPUT',
          'An outlet name must be 1 to 64 characters, without control characters or text-direction marks.',
        ),
      );
    }
    return c.run(options, async (scope) => {
      const index = apiIndexOf(outlet, await outletCountIfReadable(c, scope), c.controller);
      const action = `rename ${c.outletLabel(outlet)}`;
      // JSON, not a form: a form value such as `true` or `12` would be read as a JSON literal.
      const response = await scope.request({
        method: 'PUT',
        path: `relay/outlets/${index}/name/`,
        json: clean,
        guard: 'csrf',
      });
      if (response.status === 403) {
        throw new PlugboardError(
          'FORBIDDEN',
          `${c.who} may not rename ${c.outletLabel(outlet)} on ${c.controller}.`,
          { outlet },
          { action: 'Ask an administrator to rename it, or log in as one.' },
        );
      }
      if (response.status === 409) {
        const refusal = outletRefusal(c, outlet, response.status, 'renamed');
        throw new PlugboardError(refusal.code, refusal.message, { outlet }, { action: refusal.action });
      }
      if (response.status !== 204 && response.status !== 200)
        throw errorForStatus(response, c.context(action));
      c.outletNames.set(outlet, clean);
    });
  }

  async #write(
    scope: Scope,
    selection: OutletSelection,
    field: 'state' | 'transient_state',
    on: boolean,
    count: number | null,
  ): Promise<OutletActionResult> {
    const c = this.#connection;
    const segment = outletSegment(selection, count, c.controller);
    let numbers = segment.numbers ?? (count === null ? [] : upTo(count));
    const verb = `switched ${on ? 'on' : 'off'}`;
    const response = await scope.request({
      method: 'PUT',
      path: `relay/outlets/${segment.segment}/${field}/`,
      form: { value: String(on) },
      guard: 'csrf',
    });
    if (response.status === 207) {
      if (segment.numbers === null && count === null) numbers = upTo(multiStatusLength(response));
      return { requested: numbers, failed: multiStatusFailures(c, response, numbers, verb) };
    }
    if (response.status === 204 || response.status === 200) return { requested: numbers, failed: [] };
    if (!segment.matrix && (response.status === 409 || response.status === 403)) {
      const outlet = numbers[0]!;
      return {
        requested: numbers,
        failed: [{ outlet, error: outletRefusal(c, outlet, response.status, verb) }],
      };
    }
    throw errorForStatus(response, c.context(`switch ${describeSelection(numbers, c)} ${on ? 'on' : 'off'}`));
  }
}

function upTo(count: number): number[] {
  return Array.from({ length: count }, (_, i) => i + 1);
}

/** Elements in a 207 answer (for `all;` when the outlet count could not be read). */
function multiStatusLength(response: HttpResponse): number {
  try {
    const entries: unknown = JSON.parse(response.body);
    return Array.isArray(entries) ? entries.length : 0;
  } catch {
    return 0;
  }
}

function dedupe(changes: readonly { outlet: number; on: boolean }[]): { outlet: number; on: boolean }[] {
  if (changes.length === 0) throw new PlugboardError('BAD_INPUT', 'Name at least one outlet to switch.');
  const byOutlet = new Map<number, boolean>();
  for (const { outlet, on } of changes) {
    if (byOutlet.has(outlet) && byOutlet.get(outlet) !== on) {
      throw new PlugboardError(
        'BAD_INPUT',
        `Outlet ${outlet} is asked to be both on and off; name it once.`,
        { outlet },
      );
    }
    byOutlet.set(outlet, on);
  }
  return [...byOutlet].map(([outlet, on]) => ({ outlet, on }));
}

function describeSelection(numbers: readonly number[], c: Connection): string {
  return numbers.length === 1 ? c.outletLabel(numbers[0]!) : `outlets ${numbers.join(', ')}`;
}
