/**
 * AutoPing (admin only): list the items with their status, create, edit, enable/disable and delete.
 * Shape from power_switch_pro's autoping.py and DLI's object model: `GET autoping/` → `items[]`,
 * `POST autoping/items/` creates, `PUT autoping/items/N/` replaces one item, `DELETE` removes it.
 * Outlets and item numbers are 1-based here; the API counts both from zero.
 */
import * as v from 'valibot';
import type { Connection, Scope } from './connection';
import { PlugboardError } from '../shared/errors';
import { errorForStatus, parseAnswer, type RequestContext } from './http-errors';
import { ensureOutletCount } from './shared-reads';
import type { AutopingItem, AutopingItemInput } from '../../src-preload/model';
import type { CallOptions } from './types';

const rawItemSchema = v.looseObject({
  addresses: v.union([v.array(v.string()), v.string()]),
  outlets: v.union([v.array(v.number()), v.number()]),
  enabled: v.boolean(),
  pings_before_enabling: v.optional(v.nullable(v.number()), null),
  script: v.optional(v.nullable(v.string()), ''),
  resumption_trial: v.optional(v.boolean(), false),
  status: v.optional(v.string(), 'unknown'),
});
const autopingSchema = v.looseObject({ items: v.array(rawItemSchema) });
type RawItem = v.InferOutput<typeof rawItemSchema>;

const ADDRESS = /^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$/;

function fromRaw(raw: RawItem, index: number): AutopingItem {
  const list = <T>(value: T | T[]): T[] => (Array.isArray(value) ? value : [value]);
  return {
    number: index + 1,
    addresses: list(raw.addresses),
    outlets: list(raw.outlets).map((outlet) => outlet + 1),
    enabled: raw.enabled,
    pingsBeforeEnabling: raw.pings_before_enabling,
    resumptionTrial: raw.resumption_trial,
    script: raw.script ?? '',
    status: raw.status,
  };
}

/** Checks an item before anything is sent; names the field that is wrong. */
export function checkAutopingItem(item: AutopingItemInput, outletCount: number | null): void {
  const bad = (message: string): never => {
    throw new PlugboardError('BAD_INPUT', message, undefined, {
      action: 'Correct it and try again; nothing was changed.',
    });
  };
  if (item.addresses.length < 1 || item.addresses.length > 8)
    bad(`An AutoPing item pings 1 to 8 addresses; ${item.addresses.length} were given.`);
  const address = item.addresses.find((a) => !ADDRESS.test(a));
  if (address !== undefined) bad(`"${address.slice(0, 64)}" is not a host name or IP address.`);
  const outlet = item.outlets.find(
    (n) => !Number.isInteger(n) || n < 1 || (outletCount !== null && n > outletCount),
  );
  if (outlet !== undefined)
    bad(
      `Outlet ${outlet} does not exist${outletCount !== null ? ` (outlets are 1 to ${outletCount})` : ''}.`,
    );
  if (new Set(item.outlets).size !== item.outlets.length) bad('An outlet is named twice.');
  const pings = item.pingsBeforeEnabling;
  if (pings !== null && (!Number.isInteger(pings) || pings < 0 || pings > 1000))
    bad(`Pings before enabling is a whole number from 0 to 1000, not ${pings}.`);
  if (item.script.length > 64) bad('The script name is at most 64 characters.');
}

function toRaw(item: AutopingItemInput): Record<string, unknown> {
  return {
    addresses: [...item.addresses],
    outlets: item.outlets.map((n) => n - 1),
    enabled: item.enabled,
    pings_before_enabling: item.pingsBeforeEnabling,
    script: item.script,
    resumption_trial: item.resumptionTrial,
  };
}

export class AutopingApi {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  /** Every item with its status (one request). UNSUPPORTED_FIRMWARE when the unit has no AutoPing. */
  list(options?: CallOptions): Promise<AutopingItem[]> {
    return this.#connection.run(options, (scope) => this.#read(scope));
  }

  /** Create an item; answers with the list as it is afterwards. */
  create(item: AutopingItemInput, options?: CallOptions): Promise<AutopingItem[]> {
    const c = this.#connection;
    return c.run(options, (scope) =>
      scope.exclusive(async (slot) => {
        await this.#read(slot); // a unit without AutoPing fails here, before anything is sent
        checkAutopingItem(item, await ensureOutletCount(c, slot));
        const what = `add an AutoPing item for ${item.addresses.join(', ')}`;
        const response = await slot.request({
          method: 'POST',
          path: 'autoping/items/',
          json: toRaw(item),
          guard: 'csrf',
        });
        if (response.status !== 200 && response.status !== 201 && response.status !== 204)
          throw errorForStatus(response, this.#context(what));
        return this.#read(slot);
      }),
    );
  }

  /** Replace item `number` (1-based) with `item`; the other items stay as they are. */
  edit(number: number, item: AutopingItemInput, options?: CallOptions): Promise<AutopingItem[]> {
    const c = this.#connection;
    return c.run(options, (scope) =>
      scope.exclusive(async (slot) => {
        const current = this.#find(await this.#read(slot), number);
        checkAutopingItem(item, await ensureOutletCount(c, slot));
        const response = await slot.request({
          method: 'PUT',
          path: `autoping/items/${current.number - 1}/`,
          json: { ...toRaw(item), status: current.status },
          guard: 'csrf',
        });
        if (response.status !== 200 && response.status !== 204)
          throw errorForStatus(response, this.#context(`change AutoPing item ${number}`));
        return this.#read(slot);
      }),
    );
  }

  /**
   * Enable or disable item `number` (1-based), keeping its other fields: the whole item is written back
   * as read, as power_switch_pro's autoping.py edits items.
   */
  setEnabled(number: number, enabled: boolean, options?: CallOptions): Promise<AutopingItem[]> {
    return this.#connection.run(options, (scope) =>
      scope.exclusive(async (slot) => {
        const current = this.#find(await this.#read(slot), number);
        const what = `${enabled ? 'enable' : 'disable'} AutoPing item ${number}`;
        const response = await slot.request({
          method: 'PUT',
          path: `autoping/items/${number - 1}/`,
          json: { ...toRaw({ ...current, enabled }), status: current.status },
          guard: 'csrf',
        });
        if (response.status !== 200 && response.status !== 204)
          throw errorForStatus(response, this.#context(what));
        return this.#read(slot);
      }),
    );
  }

  /** Delete item `number` (1-based); the items after it move up by one. */
  remove(number: number, options?: CallOptions): Promise<AutopingItem[]> {
    return this.#connection.run(options, (scope) =>
      scope.exclusive(async (slot) => {
        this.#find(await this.#read(slot), number);
        const response = await slot.request({
          method: 'DELETE',
          path: `autoping/items/${number - 1}/`,
          guard: 'csrf',
        });
        if (response.status !== 200 && response.status !== 204)
          throw errorForStatus(response, this.#context(`delete AutoPing item ${number}`));
        return this.#read(slot);
      }),
    );
  }

  async #read(scope: Scope): Promise<AutopingItem[]> {
    const c = this.#connection;
    const context = this.#context('read the AutoPing items');
    const response = await scope.request({ method: 'GET', path: 'autoping/' });
    if (response.status === 404) {
      throw new PlugboardError(
        'UNSUPPORTED_FIRMWARE',
        `${c.controller} has no AutoPing (its API has no autoping/).`,
        { status: 404, feature: 'autoping' },
        { action: 'Use a controller model and firmware with AutoPing, or set it up on the unit itself.' },
      );
    }
    if (response.status !== 200) throw errorForStatus(response, context);
    return parseAnswer(response, autopingSchema, context).items.map(fromRaw);
  }

  #find(items: AutopingItem[], number: number): AutopingItem {
    const item = Number.isInteger(number) ? items[number - 1] : undefined;
    if (!item) {
      throw new PlugboardError(
        'NOT_FOUND',
        `${this.#connection.controller} has no AutoPing item ${number}${items.length ? ` (items are 1 to ${items.length})` : ' (it has none)'}.`,
        undefined,
        { action: 'List the items and use a number from the list.' },
      );
    }
    return item;
  }

  #context(action: string): RequestContext {
    const c = this.#connection;
    return c.context(action, {
      forbidden: `Only administrators can use AutoPing on ${c.controller}, and ${c.notAdmin}`,
      forbiddenAction: 'Log in as an administrator.',
    });
  }
}
