import type { Controller } from './controller';
import type { Body } from './body';
import { badRequest, type Json } from './http-error';
import type { UserRecord } from './users';

/** Who is asking: a user (digest or Basic) or an API client presenting a Bearer token. */
export type Caller =
  { kind: 'user'; user: UserRecord; ip: string } | { kind: 'token'; clientId: string; ip: string };

/** What every node sees while a request runs. */
export interface Ctx {
  controller: Controller;
  caller: Caller;
}

/** A validated write, applied only once every check of the request has passed. */
export type Apply = () => void;

/** May this non-admin user do it? Absent: administrators only. */
export type UserRule = (user: UserRecord) => boolean;

/** A value: read with GET, written with PUT/PATCH when `set` exists. */
export interface Leaf {
  kind: 'leaf';
  /** Absent for write-only values (passwords): never returned. */
  get?: () => Json;
  /** Validates the value and checks conflicts; throws HttpError, or returns the change. */
  set?: (value: unknown, ctx: Ctx) => Apply;
  userMay?: UserRule;
}

export type CallResult = { status: 204 } | { status: 200; body: Json };

/** A call (`cycle`, `script/start`): POST only, never part of a representation. */
export interface Call {
  kind: 'call';
  invoke: (args: Body, ctx: Ctx) => CallResult;
  userMay?: UserRule;
  /** The call authorises each affected outlet itself (set_outlet_transient_states). */
  checksAccess?: boolean;
  /** Runs once the answer has been sent (reboot). */
  after?: () => void;
}

export interface Container {
  kind: 'object' | 'array' | 'map';
  entries: (ctx: Ctx) => [string, Node][];
  /** POST on the collection: validate, then return the new key and the change. */
  append?: (value: unknown, ctx: Ctx) => { key: string; apply: Apply };
  /** DELETE of a child. */
  removeChild?: (key: string, ctx: Ctx) => Apply;
  /** PUT of a child: create or replace it. */
  putChild?: (key: string, value: unknown, ctx: Ctx) => Apply;
  /** PATCH with several fields where the fields depend on each other (passwords). */
  patch?: (fields: Record<string, unknown>, ctx: Ctx) => Apply;
}

export type Node = Leaf | Call | Container;

export const isContainer = (node: Node): node is Container => node.kind !== 'leaf' && node.kind !== 'call';

/** What representations and `all;` include: no calls, nothing write-only. */
export const isListed = (node: Node): boolean => node.kind !== 'call' && !(node.kind === 'leaf' && !node.get);

export function childOf(node: Container, key: string, ctx: Ctx): Node | undefined {
  return node.entries(ctx).find(([name]) => name === key)?.[1];
}

type Entries = Record<string, Node | false | undefined>;

/** An object node; `false`/`undefined` entries (features the firmware lacks) are left out. */
export function object(build: (ctx: Ctx) => Entries, extra: Partial<Container> = {}): Container {
  return {
    kind: 'object',
    entries: (ctx) =>
      Object.entries(build(ctx)).filter((entry): entry is [string, Node] => Boolean(entry[1])),
    ...extra,
  };
}

export function array(build: (ctx: Ctx) => Node[], extra: Partial<Container> = {}): Container {
  return { kind: 'array', entries: (ctx) => build(ctx).map((node, i) => [String(i), node]), ...extra };
}

export function map(build: (ctx: Ctx) => [string, Node][], extra: Partial<Container> = {}): Container {
  return { kind: 'map', entries: build, ...extra };
}

export function readOnly(get: () => Json): Leaf {
  return { kind: 'leaf', get };
}

export function writable(
  get: () => Json,
  set: (value: unknown, ctx: Ctx) => Apply,
  userMay?: UserRule,
): Leaf {
  return userMay ? { kind: 'leaf', get, set, userMay } : { kind: 'leaf', get, set };
}

/** `true`/`false` (also 1/0, as forms send them). */
export function parseBoolean(value: unknown, field: string): boolean {
  if (typeof value === 'boolean') return value;
  if (value === 1 || value === 0) return value === 1;
  throw badRequest(`${field} must be true or false.`, 'bad_value');
}

export function parseNumber(value: unknown, field: string, min: number, max: number): number {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  if (typeof number !== 'number' || !Number.isFinite(number) || number < min || number > max) {
    throw badRequest(`${field} must be a number from ${min} to ${max}.`, 'bad_value');
  }
  return number;
}

export function parseText(value: unknown, field: string, max: number): string {
  const text = typeof value === 'number' || typeof value === 'boolean' ? String(value) : value;
  if (
    typeof text !== 'string' ||
    text.length === 0 ||
    text.length > max ||
    [...text].some((char) => char < ' ' || char === '\x7f')
  ) {
    throw badRequest(
      `${field} must be text of 1 to ${max} characters without control characters.`,
      'bad_value',
    );
  }
  return text;
}

export const boolField = (get: () => boolean, apply: (on: boolean) => void, field: string): Leaf =>
  writable(get, (value) => {
    const on = parseBoolean(value, field);
    return () => apply(on);
  });
