import { randomInt } from 'node:crypto';
import { FIRMWARE_PATTERN } from './firmware';

export interface EmulatorOptions {
  /** 0 = ephemeral (the default in-process; the CLI defaults to 8080). */
  port?: number;
  /** Default '127.0.0.1'. */
  host?: string;
  /** Factory defaults admin / 1234. */
  user?: string;
  password?: string;
  /** Default 8. */
  outlets?: number;
  /** Default '1.12.14.0'. */
  firmware?: string;
  /** Default: LPC9 and ten random digits. */
  serial?: string;
  /** Default 'LPC9'. */
  model?: string;
  /** The controller's name (`relay/name`), default 'DLI Controller'. */
  name?: string;
  /** Default true. */
  meters?: boolean;
  /** Seconds, default 3 (fractions allowed). */
  cycleDelay?: number;
  /** Seconds, default 0.5. */
  sequenceDelay?: number;
  /** Default 5. */
  rebootSeconds?: number;
  /** Milliseconds added before every answer, default 0. */
  latency?: number;
  /**
   * Milliseconds added to the answer of `GET relay/outlets/` (the full list, every field of every
   * outlet), default 0. Real units take about 5 s to answer it; the real-unit profile uses 5000.
   */
  slowOutletListMs?: number;
  /**
   * Milliseconds added to every answer under `relay/outlets/` (single-outlet reads, matrix reads and
   * writes included), after the request was carried out (a switch happens at once, its answer comes
   * late), default 0: a unit that is slow everywhere. Not part of the real-unit profile.
   */
  slowOutletsMs?: number;
  /** HTTPS with a self-signed certificate generated at start. */
  tls?: boolean;
  /** Offer qop="auth" instead of the RFC 2069 challenge. */
  qop?: boolean;
  /** Advertise over mDNS (bonjour-service). */
  mdns?: boolean;
  /** Seconds a nonce stays valid, default 300. */
  nonceLifetime?: number;
  /** Initial state per outlet (index 0 = outlet 1); default: the first half on, the rest off. */
  initialStates?: boolean[];

  // ---- How real units behave on the wire. Each is off in the fast default profile;
  // `realUnit: true` turns every one on (see REAL_UNIT below); an explicit value still wins.

  /** Every behaviour of a real unit at once (defaults in REAL_UNIT). */
  realUnit?: boolean;
  /**
   * `Connection: close` on every answer, with bodies close-delimited (no Content-Length, no chunking)
   * or chunked. 'off' (default): keep-alive with Content-Length.
   */
  connectionClose?: ConnectionClose;
  /**
   * Depth-limited reads (`Range: dli-depth=N`): 'absolute' (default) cuts containers to
   * `{"$ref": "/restapi/…/"}`; 'relative' cuts leaves too, to `$ref`s relative to the resource read,
   * and answers with more than 100 response headers.
   */
  depthRefs?: DepthRefs;
  /**
   * `meter/values/`: 'simple' (default, `buses.0.voltage`… with name/value/quantity/bus) or
   * 'object-model' (platform ids, every object-model field, `false` for no reading, internal entries).
   */
  meterMap?: MeterMap;
  /**
   * Token scopes: 'simple' (default: `?access=read|modify`, modify implies read and calls) or 'dli'
   * (`?access=get,modify,invoke` separately: modify does not imply get, calls need invoke).
   */
  tokenScopes?: TokenScopes;
  /** A failed element of a 207 answer: 'with-status' (default, `{status, error}`) or 'without-status' (`{error}`). */
  matrixErrors?: MatrixErrors;
  /** Accept `script/start/` bodies sent as a form (rest.html's curl example sends no Content-Type). */
  formScriptStart?: boolean;
  /** During a cycle's off-time the transient state 'stays-on' (default) or 'follows-relay'. */
  cycleTransient?: CycleTransient;
  /**
   * Non-admin users need the External APIs grant (device.grantExternalApis); with it they may only
   * toggle outlets, without it every request answers `ungrantedStatus`.
   */
  externalApiGrant?: boolean;
  /** What a non-admin user without the grant gets: 401, 403 (default) or 404. */
  ungrantedStatus?: UngrantedStatus;
  /**
   * HTTPS: let clients resume TLS sessions (default true, Node's own behaviour). Whether real units do
   * is unknown; false makes every connection a full handshake.
   */
  tlsResumption?: boolean;
  /** The `autoping/` subtree, simulated (no ICMP). */
  autoping?: boolean;
  /** Addresses that answer AutoPing's pings from the start (others do not until told so). */
  autopingAnswering?: string[];
  /**
   * The unit's own MQTT client (External APIs page): publish each outlet's state under `topic` on the
   * broker at `broker`, and with `allowWrite` obey `<topic>/outlets/<index>/set` (mqtt.ts). Absent: none.
   */
  mqtt?: { broker: string; topic: string; allowWrite?: boolean } | null;
}

export type ConnectionClose = 'off' | 'close-delimited' | 'chunked';
export type DepthRefs = 'absolute' | 'relative';
export type MeterMap = 'simple' | 'object-model';
export type TokenScopes = 'simple' | 'dli';
export type MatrixErrors = 'with-status' | 'without-status';
export type CycleTransient = 'stays-on' | 'follows-relay';
export type UngrantedStatus = 401 | 403 | 404;

export const CONNECTION_CLOSE: readonly ConnectionClose[] = ['off', 'close-delimited', 'chunked'];
export const DEPTH_REFS: readonly DepthRefs[] = ['absolute', 'relative'];
export const METER_MAPS: readonly MeterMap[] = ['simple', 'object-model'];
export const TOKEN_SCOPES: readonly TokenScopes[] = ['simple', 'dli'];
export const MATRIX_ERRORS: readonly MatrixErrors[] = ['with-status', 'without-status'];
export const CYCLE_TRANSIENT: readonly CycleTransient[] = ['stays-on', 'follows-relay'];
export const UNGRANTED_STATUS: readonly UngrantedStatus[] = [401, 403, 404];

/** What `realUnit: true` turns on (an option given explicitly still wins). */
export const REAL_UNIT = {
  slowOutletListMs: 5000,
  connectionClose: 'chunked',
  depthRefs: 'relative',
  meterMap: 'object-model',
  tokenScopes: 'dli',
  matrixErrors: 'without-status',
  formScriptStart: true,
  cycleTransient: 'follows-relay',
  externalApiGrant: true,
  ungrantedStatus: 403,
  autoping: true,
} as const satisfies EmulatorOptions;

export type ResolvedOptions = Required<Omit<EmulatorOptions, 'initialStates' | 'mqtt'>> & {
  initialStates: boolean[];
  mqtt: { broker: string; topic: string; allowWrite: boolean } | null;
};

function check(condition: boolean, message: string): void {
  if (!condition) throw new RangeError(message);
}

const isNumberIn = (value: number, min: number, max: number): boolean =>
  typeof value === 'number' && Number.isFinite(value) && value >= min && value <= max;

export function randomSerial(): string {
  return `LPC9${String(randomInt(0, 1e10)).padStart(10, '0')}`;
}

/** Fills in defaults and rejects values a controller could not have, naming the option. */
export function resolveOptions(options: EmulatorOptions = {}): ResolvedOptions {
  const outlets = options.outlets ?? 8;
  const real = options.realUnit === true;
  const pick = <K extends keyof typeof REAL_UNIT>(key: K, fast: EmulatorOptions[K]): EmulatorOptions[K] =>
    options[key] ?? (real ? REAL_UNIT[key] : fast);
  const resolved: ResolvedOptions = {
    port: options.port ?? 0,
    host: options.host ?? '127.0.0.1',
    user: options.user ?? 'admin',
    password: options.password ?? '1234',
    outlets,
    firmware: options.firmware ?? '1.12.14.0',
    serial: options.serial ?? randomSerial(),
    model: options.model ?? 'LPC9',
    name: options.name ?? 'DLI Controller',
    meters: options.meters ?? true,
    cycleDelay: options.cycleDelay ?? 3,
    sequenceDelay: options.sequenceDelay ?? 0.5,
    rebootSeconds: options.rebootSeconds ?? 5,
    latency: options.latency ?? 0,
    slowOutletListMs: pick('slowOutletListMs', 0) ?? 0,
    slowOutletsMs: options.slowOutletsMs ?? 0,
    tls: options.tls ?? false,
    qop: options.qop ?? false,
    mdns: options.mdns ?? false,
    nonceLifetime: options.nonceLifetime ?? 300,
    initialStates:
      options.initialStates ?? Array.from({ length: outlets }, (_, i) => i < Math.ceil(outlets / 2)),
    realUnit: real,
    connectionClose: pick('connectionClose', 'off') ?? 'off',
    depthRefs: pick('depthRefs', 'absolute') ?? 'absolute',
    meterMap: pick('meterMap', 'simple') ?? 'simple',
    tokenScopes: pick('tokenScopes', 'simple') ?? 'simple',
    matrixErrors: pick('matrixErrors', 'with-status') ?? 'with-status',
    formScriptStart: pick('formScriptStart', false) ?? false,
    cycleTransient: pick('cycleTransient', 'stays-on') ?? 'stays-on',
    externalApiGrant: pick('externalApiGrant', false) ?? false,
    ungrantedStatus: pick('ungrantedStatus', 403) ?? 403,
    autoping: pick('autoping', false) ?? false,
    tlsResumption: options.tlsResumption ?? true,
    autopingAnswering: options.autopingAnswering ?? [],
    mqtt: options.mqtt
      ? {
          broker: options.mqtt.broker,
          topic: options.mqtt.topic.replace(/\/+$/, ''),
          allowWrite: options.mqtt.allowWrite === true,
        }
      : null,
  };
  const oneOf = <T>(value: T, allowed: readonly T[], name: string): void =>
    check(allowed.includes(value), `${name} must be one of ${allowed.join(', ')}`);
  oneOf(resolved.connectionClose, CONNECTION_CLOSE, 'connectionClose');
  oneOf(resolved.depthRefs, DEPTH_REFS, 'depthRefs');
  oneOf(resolved.meterMap, METER_MAPS, 'meterMap');
  oneOf(resolved.tokenScopes, TOKEN_SCOPES, 'tokenScopes');
  oneOf(resolved.matrixErrors, MATRIX_ERRORS, 'matrixErrors');
  oneOf(resolved.cycleTransient, CYCLE_TRANSIENT, 'cycleTransient');
  oneOf(resolved.ungrantedStatus, UNGRANTED_STATUS, 'ungrantedStatus');
  check(
    Array.isArray(resolved.autopingAnswering) &&
      resolved.autopingAnswering.every((address) => typeof address === 'string' && address.length > 0),
    'autopingAnswering must be a list of addresses',
  );
  if (resolved.mqtt) {
    check(
      /^(mqtts?|wss?):\/\/[^\s]+$/.test(resolved.mqtt.broker),
      'mqtt broker must be an mqtt:// or mqtts:// address',
    );
    check(
      /^[^+#\s$][^+#\s]*$/.test(resolved.mqtt.topic),
      'mqtt topic must be a root without wildcards or spaces',
    );
  }
  check(
    Number.isInteger(resolved.port) && isNumberIn(resolved.port, 0, 65535),
    'port must be a whole number from 0 to 65535',
  );
  check(resolved.host.length > 0, 'host must not be empty');
  check(
    /^[\x21-\x7e]{1,32}$/.test(resolved.user) && !/[":\\]/.test(resolved.user),
    'user must be 1–32 printable characters without spaces, ", : or \\',
  );
  check(/^[\x20-\x7e]{1,64}$/.test(resolved.password), 'password must be 1–64 printable ASCII characters');
  check(
    Number.isInteger(outlets) && isNumberIn(outlets, 1, 64),
    'outlets must be a whole number from 1 to 64',
  );
  check(FIRMWARE_PATTERN.test(resolved.firmware), 'firmware must be dotted numbers such as 1.12.14.0');
  check(/^[A-Za-z0-9-]{1,32}$/.test(resolved.serial), 'serial must be 1–32 letters, digits or -');
  check(/^[\x20-\x7e]{1,32}$/.test(resolved.model), 'model must be 1–32 printable characters');
  check(/^[\x20-\x7e]{1,64}$/.test(resolved.name), 'name must be 1–64 printable characters');
  check(isNumberIn(resolved.cycleDelay, 0, 3600), 'cycle delay must be between 0 and 3600 seconds');
  check(isNumberIn(resolved.sequenceDelay, 0, 60), 'sequence delay must be between 0 and 60 seconds');
  check(isNumberIn(resolved.rebootSeconds, 0, 600), 'reboot seconds must be between 0 and 600');
  check(isNumberIn(resolved.latency, 0, 60_000), 'latency must be between 0 and 60000 milliseconds');
  check(
    isNumberIn(resolved.slowOutletListMs, 0, 60_000),
    'slow outlet list must be between 0 and 60000 milliseconds',
  );
  check(
    isNumberIn(resolved.slowOutletsMs, 0, 60_000),
    'slow outlets must be between 0 and 60000 milliseconds',
  );
  check(
    isNumberIn(resolved.nonceLifetime, 0.1, 86_400),
    'nonce lifetime must be between 0.1 and 86400 seconds',
  );
  check(
    resolved.initialStates.length === outlets &&
      resolved.initialStates.every((on) => typeof on === 'boolean'),
    `initialStates must hold ${outlets} booleans`,
  );
  return resolved;
}
