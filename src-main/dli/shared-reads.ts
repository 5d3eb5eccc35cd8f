/** Reads that several parts of the client share: a JSON GET, the outlet list, the firmware version, meters. */
import type * as v from 'valibot';
import type { Connection, Scope } from './connection';
import { isPlugboardError } from '../shared/errors';
import { errorForStatus, parseAnswer, type RequestContext } from './http-errors';
import { meterReadings, type MeterReadOptions } from './meters';
import { outletNumberOf } from './outlet-numbers';
import { meterValuesSchema, outletSchema, outletsSchema, textSchema } from './schemas';
import type { MeterReading, Outlet } from './types';

/** `GET path`: a 200 answer checked against `schema`; any other status becomes the error for it. */
export async function getJson<S extends v.GenericSchema>(
  scope: Scope,
  path: string,
  schema: S,
  context: RequestContext,
): Promise<v.InferOutput<S>> {
  const response = await scope.request({ method: 'GET', path });
  if (response.status !== 200) throw errorForStatus(response, context);
  return parseAnswer(response, schema, context);
}

/** `GET relay/outlets/`: every outlet with every state in one request. Remembers count and names. */
export async function readOutlets(connection: Connection, scope: Scope): Promise<Outlet[]> {
  const raws = await getJson(scope, 'relay/outlets/', outletsSchema, connection.context('read the outlets'));
  const outlets = raws.map((raw, index): Outlet => ({
    number: outletNumberOf(index),
    name: raw.name,
    state: raw.state,
    transientState: raw.transient_state,
    physicalState: raw.physical_state,
    locked: raw.locked,
    critical: raw.critical,
    cycleDelay: raw.cycle_delay,
  }));
  connection.outletCount = outlets.length;
  connection.outletNames = new Map(outlets.map((o) => [o.number, o.name]));
  return outlets;
}

/**
 * `GET relay/outlets/N/` for each outlet given (1-based), one at a time: a few outlets without the whole
 * list, which some units take about 5 s to answer.
 */
export async function readSomeOutlets(
  connection: Connection,
  scope: Scope,
  numbers: readonly number[],
): Promise<Outlet[]> {
  const outlets: Outlet[] = [];
  for (const number of numbers) {
    const raw = await getJson(
      scope,
      `relay/outlets/${number - 1}/`,
      outletSchema,
      connection.context(`read outlet ${number}`),
    );
    outlets.push({
      number,
      name: raw.name,
      state: raw.state,
      transientState: raw.transient_state,
      physicalState: raw.physical_state,
      locked: raw.locked,
      critical: raw.critical,
      cycleDelay: raw.cycle_delay,
    });
  }
  return outlets;
}

export async function ensureOutletCount(connection: Connection, scope: Scope): Promise<number> {
  if (connection.outletCount === null) await readOutlets(connection, scope);
  return connection.outletCount ?? 0;
}

/**
 * The outlet count if this login may read the outlet list; null for a narrow access token that may
 * switch outlets but not list them (the controller then checks outlet numbers itself).
 */
export function outletCountIfReadable(connection: Connection, scope: Scope): Promise<number | null> {
  return unlessForbidden(ensureOutletCount(connection, scope));
}

/** The value, or null when this login may not read it (FORBIDDEN); other errors pass. */
export async function unlessForbidden<T>(read: Promise<T>): Promise<T | null> {
  try {
    return await read;
  } catch (error) {
    if (isPlugboardError(error) && error.code === 'FORBIDDEN') return null;
    throw error;
  }
}

/** One text field such as `config/serial/`. */
export async function readText(
  connection: Connection,
  scope: Scope,
  path: string,
  what: string,
): Promise<string> {
  return getJson(scope, path, textSchema, connection.context(`read ${what}`));
}

/** The firmware version, read once and remembered (gated calls check it without another request). */
export async function ensureFirmware(connection: Connection, scope: Scope): Promise<string> {
  if (connection.firmware === null) {
    connection.firmware = await readText(connection, scope, 'config/version/', 'the firmware version');
  }
  return connection.firmware;
}

/** `GET meter/values/`: every meter in one request, converted; null when the controller has none. */
export async function readMeters(
  connection: Connection,
  scope: Scope,
  options: MeterReadOptions = {},
): Promise<MeterReading[] | null> {
  const context = connection.context('read the meters');
  const response = await scope.request({ method: 'GET', path: 'meter/values/' });
  if (response.status === 404) return null;
  if (response.status !== 200) throw errorForStatus(response, context);
  const readings = meterReadings(parseAnswer(response, meterValuesSchema, context), options);
  return readings.length ? readings : null;
}
