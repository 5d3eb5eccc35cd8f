/**
 * Public types of the controller client. Outlet numbers here are 1-based, as on the hardware label;
 * only `outlet-numbers.ts` knows the API counts from zero.
 */
import type {
  Capabilities,
  DeviceUser,
  Identity,
  MeterReading,
  OutletActionResult,
  OutletReading,
  ScriptsState,
  ScriptThread,
} from '../../src-preload/model';
import type { Credentials } from '../shared/credentials';

export type {
  Capabilities,
  DeviceUser,
  Identity,
  MeterReading,
  OutletActionResult,
  ScriptsState,
  ScriptThread,
};

/** How the client logs in (shared: the Core and the CLI build them from saved controllers). */
export type { Credentials };

/** The HTTP methods the client sends. */
export type HttpMethod = 'GET' | 'PUT' | 'POST' | 'DELETE' | 'PATCH';

/** Interactive calls (a person clicked) go ahead of queued background polls. */
export type Priority = 'interactive' | 'background';

/** Options every client call accepts. */
export interface CallOptions {
  /** Cancels the call (queued or in flight); the call rejects with CANCELLED. */
  signal?: AbortSignal;
  /**
   * Limit for each request of the call, from when it leaves the controller's queue (waiting behind other
   * requests does not count; a digest challenge's retry gets its own); default: the client's `timeoutMs`.
   */
  timeoutMs?: number;
  /** Default 'interactive'. */
  priority?: Priority;
}

export interface DliClientOptions {
  /** `http[s]://host[:port]`; a path, if any, is ignored. */
  url: string;
  credentials: Credentials;
  /** How messages name this controller, e.g. "Bench A"; default: host[:port]. */
  name?: string;
  /**
   * SHA-256 fingerprint of the certificate accepted for this controller (HTTPS). Without one, the first
   * HTTPS connection fails with TLS_UNTRUSTED carrying `detail.fingerprint` for the person to accept.
   */
  fingerprint?: string | null;
  /** Default limit per request in ms (default 10 000), counted from when it leaves the queue. */
  timeoutMs?: number;
  /** Firmware version if already known (e.g. saved from `describe()`), so gated calls need no extra read. */
  firmware?: string;
  /**
   * Asked before every request that changes something on the unit (every method but GET, each send of
   * it): throws to refuse it, and then nothing is sent. The fence of a service that may lose the lead.
   */
  beforeWrite?: () => void;
}

/** One, several (1-based numbers) or all outlets. */
export type OutletSelection = 'all' | readonly number[];

/** One outlet as the controller reports it (1-based number). */
export type Outlet = OutletReading;

/** The logged-in user (or token client) as the controller sees it (`cred/`). */
export interface Caller {
  name: string | null;
  isAdmin: boolean;
  /** Index 0 = outlet 1. */
  outletAccess: boolean[];
}

/** What "add controller" needs to verify and show. */
export interface ControllerDescription {
  identity: Identity;
  capabilities: Capabilities;
  caller: Caller;
  outlets: Outlet[];
  /** null: the controller has no meters. */
  meters: MeterReading[] | null;
  /** Fingerprint of the certificate in use (HTTPS), else null. */
  fingerprint: string | null;
}

/** Result of switching several outlets at once. */
export interface SwitchResult extends OutletActionResult {
  /** true: one `set_outlet_transient_states` call; false: the fallback (one matrix PUT per target value). */
  simultaneous: boolean;
}

/** A script argument: typed values only, never code. */
export type ScriptArgument = number | string | boolean;

export interface NewUser {
  name: string;
  password: string;
  isAdmin: boolean;
  isAllowed: boolean;
  /** Index 0 = outlet 1; padded with `false` to the controller's outlet count. */
  outletAccess: boolean[];
}

/** The fields of a user to change (users.update); what is left out stays. */
export interface UserChange {
  password?: string;
  isAdmin?: boolean;
  isAllowed?: boolean;
  /** Index 0 = outlet 1; padded with `false` to the controller's outlet count. */
  outletAccess?: boolean[];
}

/** A node of the API tree as read with `Range: dli-depth`. */
export interface TreeRead {
  /** Path below `/restapi/` as requested, with a trailing slash. */
  path: string;
  depth: number;
  value: unknown;
}

/** Counters for benchmarks and diagnostics (this client only). */
export interface ClientStats {
  /** HTTP requests sent (each digest retry counts). */
  requests: number;
  /** 401 answers received. */
  challenges: number;
}
