/**
 * The controller client: one instance per controller. Every call goes through the controller's queue
 * (one request in flight; interactive ahead of background), each request under its own deadline from
 * when it leaves the queue, and an optional signal; it fails with a PlugboardError whose code a person
 * can act on.
 */
import { AutopingApi } from './api-autoping';
import { OutletsApi } from './api-outlets';
import { ScriptsApi } from './api-scripts';
import { SettingsApi } from './api-settings';
import { SystemApi } from './api-system';
import { UsersApi } from './api-users';
import { Connection, type Scope } from './connection';
import { PlugboardError, isPlugboardError } from '../shared/errors';
import { firmwareCapabilities } from './firmware';
import type { MeterReadOptions } from './meters';
import { errorForStatus, parseAnswer } from './http-errors';
import { credSchema, textSchema } from './schemas';
import { ensureFirmware, readMeters, readOutlets, readText, unlessForbidden } from './shared-reads';
import type {
  Caller,
  CallOptions,
  ClientStats,
  ControllerDescription,
  DliClientOptions,
  Identity,
  MeterReading,
  Outlet,
} from './types';

export class DliClient {
  readonly #connection: Connection;
  /** Outlets: list, setState, cycle, switch (simultaneous), rename. */
  readonly outlets: OutletsApi;
  /** Scripts: list, start, stop. */
  readonly scripts: ScriptsApi;
  /** Users: list, create, delete. */
  readonly users: UsersApi;
  /** SSH, reboot, API tree, meters. */
  readonly system: SystemApi;
  /** AutoPing: list, create, edit, setEnabled, remove. */
  readonly autoping: AutopingApi;
  /** Outlet settings (cycle delay, critical) and the relay's timing. */
  readonly settings: SettingsApi;

  constructor(options: DliClientOptions) {
    this.#connection = new Connection(options);
    this.outlets = new OutletsApi(this.#connection);
    this.scripts = new ScriptsApi(this.#connection);
    this.users = new UsersApi(this.#connection);
    this.system = new SystemApi(this.#connection);
    this.autoping = new AutopingApi(this.#connection);
    this.settings = new SettingsApi(this.#connection);
  }

  /** How messages name this controller. */
  get controller(): string {
    return this.#connection.controller;
  }

  /** `http[s]://host:port`. */
  get origin(): string {
    return this.#connection.origin;
  }

  /** Firmware version once known (read by `identity()`, `describe()` or a gated call, or given). */
  get firmware(): string | null {
    return this.#connection.firmware;
  }

  /** Outlet count once outlets were read. */
  get outletCount(): number | null {
    return this.#connection.outletCount;
  }

  /** SHA-256 fingerprint of the certificate last seen (HTTPS), also when it was refused. */
  get certificate(): string | null {
    return this.#connection.certificate;
  }

  /** Requests sent and 401s received by this client. */
  get stats(): ClientStats {
    return this.#connection.stats;
  }

  /** Model, serial, firmware, relay firmware, the controller's own name and host name (six small reads). */
  identity(options?: CallOptions): Promise<Identity> {
    return this.#connection.run(options, (scope) => this.#identity(scope));
  }

  /** The logged-in user (or token client) as the controller sees it: admin flag and outlet access. */
  caller(options?: CallOptions): Promise<Caller> {
    return this.#connection.run(options, (scope) => this.#caller(scope));
  }

  /** Same as `system.meters()`: every meter in one request; null when the controller has none. */
  meters(options?: CallOptions & MeterReadOptions): Promise<MeterReading[] | null> {
    return this.system.meters(options);
  }

  /**
   * A full refresh for a poller: all outlets (one request) and, unless `meters: false`, all meters (one
   * more). Background priority unless said otherwise.
   */
  refresh(
    options?: CallOptions & { meters?: boolean },
  ): Promise<{ outlets: Outlet[]; meters: MeterReading[] | null }> {
    const c = this.#connection;
    return c.run({ priority: 'background', ...options }, async (scope) => ({
      outlets: await readOutlets(c, scope),
      meters: options?.meters === false ? null : await readMeters(c, scope),
    }));
  }

  /**
   * Verify a controller before saving it: identity, firmware capabilities, the caller's admin flag and
   * outlet access, outlets and meters. Fails with the error a person must fix (AUTH_FAILED,
   * API_DISABLED, TLS_UNTRUSTED with the fingerprint to accept, NOT_A_CONTROLLER, …).
   *
   * The order serves a poller that wants to show something fast: the firmware (proves this is a
   * controller, gives the capabilities), the caller, outlets and meters come first and are handed to
   * `onLive` before the five identity strings are read.
   *
   * A narrow access token may not read everything: what it may not read is left empty ('' in the
   * identity, no outlets, no meters) rather than failing, since the token still works for what it is for.
   */
  describe(
    options?: CallOptions & { onLive?: (live: Omit<ControllerDescription, 'identity'>) => void },
  ): Promise<ControllerDescription> {
    const c = this.#connection;
    return c.run(options, async (scope) => {
      const firmware = await tolerantText(ensureFirmware(c, scope)).catch((error: unknown) => {
        if (isPlugboardError(error) && error.code === 'DEVICE_ERROR' && error.detail?.status === 404) {
          throw new PlugboardError(
            'NOT_A_CONTROLLER',
            `${c.origin} answers, but has no firmware version under /restapi/config/: it is not a power controller with the REST-style API. Check the address and port.`,
          );
        }
        throw error;
      });
      const caller = await this.#caller(scope);
      const outlets = (await unlessForbidden(readOutlets(c, scope))) ?? [];
      const meters = await unlessForbidden(readMeters(c, scope));
      const count = outlets.length || caller.outletAccess.length;
      const outletAccess = Array.from({ length: count }, (_, i) => caller.outletAccess[i] ?? caller.isAdmin);
      const live = {
        capabilities: {
          ...firmwareCapabilities(firmware),
          meters: meters !== null,
          isAdmin: caller.isAdmin,
          outletCount: count,
          outletAccess,
        },
        caller: { ...caller, outletAccess },
        outlets,
        meters,
        fingerprint: c.origin.startsWith('https:') ? c.certificate : null,
      };
      options?.onLive?.(live);
      return { identity: await this.#identityAfterFirmware(scope, firmware, true), ...live };
    });
  }

  /** Close the connection (idle sockets); the client must not be used afterwards. */
  close(): Promise<void> {
    return this.#connection.close();
  }

  async #identity(scope: Scope): Promise<Identity> {
    // The firmware first: a controller that fails here fails before any other read.
    return this.#identityAfterFirmware(scope, await ensureFirmware(this.#connection, scope), false);
  }

  /** With `tolerant`, fields this login may not read come back as ''. */
  async #identityAfterFirmware(scope: Scope, firmware: string, tolerant: boolean): Promise<Identity> {
    const c = this.#connection;
    const text = (read: Promise<string>): Promise<string> => (tolerant ? tolerantText(read) : read);
    // One read after the other: the controller gets one request at a time.
    const model = await text(readText(c, scope, 'relay/model/', 'the model'));
    const serial = await text(readText(c, scope, 'config/serial/', 'the serial number'));
    const relayFirmware = await text(readText(c, scope, 'relay/version/', 'the relay firmware version'));
    const controllerName = await text(readText(c, scope, 'relay/name/', 'the controller name'));
    const readHostname = () => this.#optionalText(scope, 'config/hostname/', 'the host name');
    const hostname = tolerant ? await unlessForbidden(readHostname()) : await readHostname();
    return { firmware, model, serial, relayFirmware, controllerName, hostname };
  }

  /** A field not every firmware has: null when the API answers 404 for it. */
  async #optionalText(scope: Scope, path: string, what: string): Promise<string | null> {
    const c = this.#connection;
    const response = await scope.request({ method: 'GET', path });
    if (response.status === 404) return null;
    const context = c.context(`read ${what}`);
    if (response.status !== 200) throw errorForStatus(response, context);
    return parseAnswer(response, textSchema, context);
  }

  async #caller(scope: Scope): Promise<Caller> {
    const c = this.#connection;
    const context = c.context('read who is logged in');
    const response = await scope.request({ method: 'GET', path: 'cred/' });
    // Firmware without `cred/` (the API's own 404): nothing to tell, and the controller enforces rights
    // itself, so assume the login may do what it asks and let the controller refuse.
    if (response.status === 404) return { name: null, isAdmin: true, outletAccess: [] };
    if (response.status !== 200) throw errorForStatus(response, context);
    const cred = parseAnswer(response, credSchema, context);
    return { name: cred.name, isAdmin: cred.is_admin, outletAccess: cred.outlet_access ?? [] };
  }
}

/** Text this login may not read (FORBIDDEN) comes back as ''; other errors pass. */
async function tolerantText(read: Promise<string>): Promise<string> {
  return (await unlessForbidden(read)) ?? '';
}
