import type { Authenticator } from './auth';
import type { Controller, ControllerConfig } from './controller';
import type { Faults, FaultPlan } from './faults';
import type { Lifecycle } from './lifecycle';
import { isMeterKey, type MeterEntry, type MeterKey } from './meters';
import type { OutletRecord } from './relay';
import { createRealUnitDevice, type RealUnitDevice } from './device-real';
import type { RequestStats } from './stats';
import { parseFlag, parseOutletAccess, parsePassword, parseUserName } from './users';

/** One outlet as a test sees it (index 0 = outlet 1): the controller's record, copied. */
export interface OutletSnapshot extends OutletRecord {
  index: number;
  /** In the off-time of a cycle. */
  cycling: boolean;
}

export interface OutletPatch {
  name?: string;
  /** Sets the persistent state (and the transient state with it), as the keypad would. */
  state?: boolean;
  transientState?: boolean;
  locked?: boolean;
  critical?: boolean;
  cycleDelay?: number | null;
}

export interface DeviceUserInput {
  name: string;
  password: string;
  isAdmin?: boolean;
  isAllowed?: boolean;
  /** Default: no outlets. */
  outletAccess?: boolean[];
  /** The External APIs grant (checked only with the externalApiGrant option); default true. */
  externalApis?: boolean;
}

export type ConfigPatch = Partial<
  Pick<ControllerConfig, 'name' | 'hostname' | 'sshEnabled' | 'allowPlaintextLogins' | 'restApiEnabled'>
>;

/** Lets a test (or the demo) inspect and script the controller from outside the network. */
export interface Device extends RealUnitDevice {
  readonly serial: string;
  readonly model: string;
  readonly firmware: string;
  readonly outletCount: number;

  /** Every outlet, index 0 = outlet 1. */
  outlets(): OutletSnapshot[];
  outlet(index: number): OutletSnapshot;
  /** Change an outlet from the keypad / the controller's own page: ignores locks and user rights. */
  setOutlet(index: number, patch: OutletPatch): void;
  lock(index: number): void;
  unlock(index: number): void;
  setCritical(index: number, critical: boolean): void;
  /** No relay change pending: every physical state matches its transient state. */
  settled(): boolean;
  /** Resolves once settled; rejects after `timeoutMs`. */
  whenSettled(timeoutMs?: number): Promise<void>;

  readonly hasMeters: boolean;
  /** Current meter values (throws on a controller without meters). */
  meters(): Record<MeterKey, MeterEntry>;
  /** Pin a meter (a sensor reading, a mains voltage); null = the sensor reports nothing. */
  setMeter(key: string, value: number | null): void;
  /** Let a pinned meter follow the simulation again. */
  resetMeter(key: string): void;
  /** Load drawn by an outlet while it is physically on, in amperes. */
  setLoad(index: number, amps: number): void;
  loads(): number[];

  /** Users without passwords. */
  users(): { name: string; isAdmin: boolean; isAllowed: boolean; outletAccess: boolean[] }[];
  addUser(user: DeviceUserInput): void;
  removeUser(name: string): void;
  setPassword(name: string, password: string): void;
  /** Creates an API client with one access token; returns what goes after `Bearer `. Firmware ≥ 1.10. */
  issueToken(clientId: string, scopes: string[], name?: string): string;

  /** Running script threads. */
  threads(): { id: string; label: string }[];
  stopScripts(): void;

  config(): Readonly<ControllerConfig>;
  setConfig(patch: ConfigPatch): void;

  /** Fault injection: drop, hang, error500, malformedJson (see FaultPlan). */
  readonly faults: { add(plan: FaultPlan): void; clear(): void; list(): FaultPlan[] };
  /** Milliseconds added before every answer. */
  latency: number;
  /** Milliseconds added to the answer of `GET relay/outlets/` (the full list). */
  slowOutletListMs: number;
  /** Milliseconds added to every answer under `relay/outlets/`, after the request was carried out. */
  slowOutletsMs: number;
  /** Close the listening socket and cut every connection (unplugged). */
  goOffline(): Promise<void>;
  /** Listen again on the same port. */
  comeBack(): Promise<void>;
  readonly offline: boolean;
  /** Like `system/reboot/`: down for rebootSeconds, then back with transient states reverted. */
  reboot(): Promise<void>;
  readonly rebooting: boolean;
  /** Forget every nonce: the next digest request gets a 401 with stale=true. */
  expireNonces(): void;

  /** The HTTPS certificate (PEM) and its SHA-256 fingerprint; null without TLS. */
  readonly certificate: { pem: string; fingerprint256: string } | null;
  /** Serve a freshly generated certificate from now on; returns its fingerprint. */
  changeCertificate(): Promise<string>;

  /** Request statistics (requests, 401s, max in flight, recent log). */
  readonly stats: RequestStats;
  /** HTTPS: TLS handshakes so far, full and resumed (both 0 without TLS). */
  tlsHandshakes(): { full: number; resumed: number };
  /** HTTPS: allow TLS session resumption (start value: the tlsResumption option). */
  tlsResumption: boolean;
}

export interface DeviceParts {
  controller: Controller;
  auth: Authenticator;
  faults: Faults;
  stats: RequestStats;
  lifecycle: Lifecycle;
  releaseHanging: () => void;
  latency: { value: number };
  slowOutletList: { value: number };
  slowOutlets: { value: number };
  front: { handshakes: { full: number; resumed: number }; resumption: boolean };
}

export function createDevice(parts: DeviceParts): Device {
  const { controller, lifecycle } = parts;
  const { relay, users, config } = controller;
  const snapshot = (index: number): OutletSnapshot => {
    const outlet = relay.outlet(index);
    return { index, ...outlet, cycling: relay.isCycling(index) };
  };
  const meters = () => {
    if (!controller.meters) throw new Error('This controller has no meters (started with meters: false).');
    return controller.meters;
  };
  const meterKey = (key: string): MeterKey => {
    if (!isMeterKey(key)) throw new RangeError(`No meter ${key}`);
    return key;
  };
  const real = createRealUnitDevice(controller);
  const user = (name: string) => {
    const found = users.find(name);
    if (!found) throw new RangeError(`No user ${name}`);
    return found;
  };

  const { pinMeter, unpinMeter, ...realUnit } = real;
  return {
    ...realUnit,
    serial: config.serial,
    model: config.model,
    firmware: config.firmware,
    outletCount: relay.count,
    outlets: () => relay.outlets.map((_, i) => snapshot(i)),
    outlet: (index) => snapshot(index),
    setOutlet(index, patch) {
      const outlet = relay.outlet(index);
      if (patch.name !== undefined) outlet.name = patch.name;
      if (patch.locked !== undefined) outlet.locked = patch.locked;
      if (patch.critical !== undefined) outlet.critical = patch.critical;
      if (patch.cycleDelay !== undefined) outlet.cycleDelay = patch.cycleDelay;
      if (patch.state !== undefined) relay.setState(index, patch.state);
      if (patch.transientState !== undefined) relay.setTransient(index, patch.transientState);
    },
    lock: (index) => void (relay.outlet(index).locked = true),
    unlock: (index) => void (relay.outlet(index).locked = false),
    setCritical: (index, critical) => void (relay.outlet(index).critical = critical),
    settled: () => relay.settled(),
    whenSettled(timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      return new Promise((resolve, reject) => {
        const check = (): void => {
          if (relay.settled()) resolve();
          else if (Date.now() > deadline)
            reject(new Error(`The outlets did not settle within ${timeoutMs} ms`));
          else setTimeout(check, 20);
        };
        check();
      });
    },

    hasMeters: controller.meters !== null,
    meters: () => meters().values(),
    setMeter: (key, value) => void (pinMeter(key, value) || meters().set(meterKey(key), value)),
    resetMeter: (key) => void (unpinMeter(key) || meters().reset(meterKey(key))),
    setLoad: (index, amps) => meters().setLoad(index, amps),
    loads: () => meters().loadsSnapshot(),

    users: () =>
      users.list.map((u) => ({
        name: u.name,
        isAdmin: u.isAdmin,
        isAllowed: u.isAllowed,
        outletAccess: [...u.outletAccess],
      })),
    addUser(input) {
      users.add({
        name: parseUserName(input.name),
        password: parsePassword(input.password),
        isAdmin: parseFlag('isAdmin', input.isAdmin ?? false),
        isAllowed: parseFlag('isAllowed', input.isAllowed ?? true),
        outletAccess: parseOutletAccess(input.outletAccess ?? Array(relay.count).fill(false), relay.count),
        ...(input.externalApis === false && { externalApis: false }),
      });
    },
    removeUser: (name) => users.remove(users.list.indexOf(user(name))),
    setPassword: (name, password) => void (user(name).password = parsePassword(password)),
    issueToken(clientId, scopes, name = clientId) {
      if (!controller.features.tokens) throw new Error('Access tokens need firmware 1.10 or newer.');
      return controller.clients.issue(clientId, name, scopes);
    },

    threads: () => controller.scripts.threadList(),
    stopScripts: () => void controller.scripts.stop('all'),

    config: () => ({ ...config }),
    setConfig: (patch) => void Object.assign(config, patch),

    faults: {
      add: (plan) => parts.faults.add(plan),
      clear: () => {
        parts.faults.clear();
        parts.releaseHanging();
      },
      list: () => parts.faults.list(),
    },
    get latency() {
      return parts.latency.value;
    },
    set latency(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('latency is milliseconds ≥ 0');
      parts.latency.value = ms;
    },
    get slowOutletListMs() {
      return parts.slowOutletList.value;
    },
    set slowOutletListMs(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('slowOutletListMs is milliseconds ≥ 0');
      parts.slowOutletList.value = ms;
    },
    get slowOutletsMs() {
      return parts.slowOutlets.value;
    },
    set slowOutletsMs(ms: number) {
      if (!Number.isFinite(ms) || ms < 0) throw new RangeError('slowOutletsMs is milliseconds ≥ 0');
      parts.slowOutlets.value = ms;
    },
    goOffline: () => lifecycle.goOffline(),
    comeBack: () => lifecycle.comeBack(),
    get offline() {
      return lifecycle.offline;
    },
    reboot: () => lifecycle.reboot(),
    get rebooting() {
      return lifecycle.rebooting;
    },
    expireNonces: () => parts.auth.nonces.clear(),

    get certificate() {
      const cert = lifecycle.certificate;
      return cert ? { pem: cert.cert, fingerprint256: cert.fingerprint256 } : null;
    },
    changeCertificate: () => lifecycle.changeCertificate(),

    stats: parts.stats,
    tlsHandshakes: () => ({ ...parts.front.handshakes }),
    get tlsResumption() {
      return parts.front.resumption;
    },
    set tlsResumption(on: boolean) {
      parts.front.resumption = on;
    },
  };
}
