/** Configuration and system: SSH, reboot (firmware-gated), the API tree, meters. */
import * as v from 'valibot';
import type { Connection } from './connection';
import { PlugboardError } from '../shared/errors';
import { requireFeature } from './firmware';
import { errorForStatus, parseAnswer } from './http-errors';
import { booleanSchema } from './schemas';
import type { MeterReadOptions } from './meters';
import { ensureFirmware, getJson, readMeters } from './shared-reads';
import { absoluteTreeRefs } from './tree-refs';
import type { CallOptions, MeterReading, TreeRead } from './types';

const ADMIN_ONLY = (c: Connection): string =>
  `Only administrators can change the configuration of ${c.controller}, and ${c.notAdmin}`;

export class SystemApi {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  /** Whether SSH is enabled (`config/ssh_enabled/`). */
  ssh(options?: CallOptions): Promise<boolean> {
    const c = this.#connection;
    return c.run(options, (scope) =>
      getJson(
        scope,
        'config/ssh_enabled/',
        booleanSchema,
        c.context('read the SSH setting', {
          forbidden: ADMIN_ONLY(c),
          forbiddenAction: 'Log in as an administrator.',
        }),
      ),
    );
  }

  setSsh(enabled: boolean, options?: CallOptions): Promise<void> {
    const c = this.#connection;
    return c.run(options, async (scope) => {
      const response = await scope.request({
        method: 'PUT',
        path: 'config/ssh_enabled/',
        form: { value: String(enabled) },
        guard: 'csrf',
      });
      if (response.status !== 204 && response.status !== 200) {
        throw errorForStatus(
          response,
          c.context(`${enabled ? 'enable' : 'disable'} SSH`, {
            forbidden: ADMIN_ONLY(c),
            forbiddenAction: 'Log in as an administrator.',
          }),
        );
      }
    });
  }

  /**
   * The relay's timing in seconds: the default cycle off-time (`relay/cycle_delay/`) and the delay between
   * outlets switched on together (`relay/sequence_delay/`), in one matrix read. null for what this login
   * may not read or the firmware does not have.
   */
  relayTiming(options?: CallOptions): Promise<{ cycleDelay: number | null; sequenceDelay: number | null }> {
    const c = this.#connection;
    return c.run(options, async (scope) => {
      const response = await scope.request({ method: 'GET', path: 'relay/=cycle_delay,sequence_delay/' });
      if (response.status !== 207 && response.status !== 200)
        return { cycleDelay: null, sequenceDelay: null };
      const values = parseAnswer(response, v.array(v.unknown()), c.context('read the relay timing'));
      const seconds = (value: unknown): number | null =>
        typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : null;
      return { cycleDelay: seconds(values[0]), sequenceDelay: seconds(values[1]) };
    });
  }

  /** Reboot the controller (firmware ≥ 1.11.6.0; older firmware fails fast with UNSUPPORTED_FIRMWARE). */
  reboot(options?: CallOptions): Promise<void> {
    const c = this.#connection;
    return c.run(options, async (scope) => {
      requireFeature(await ensureFirmware(c, scope), 'reboot', c.controller);
      const response = await scope.request({
        method: 'POST',
        path: 'system/reboot/',
        json: [],
        guard: 'csrf',
      });
      if (response.status !== 204 && response.status !== 200) {
        throw errorForStatus(
          response,
          c.context('reboot', { forbidden: ADMIN_ONLY(c), forbiddenAction: 'Log in as an administrator.' }),
        );
      }
    });
  }

  /** Read part of the API tree, depth-limited with `Range: dli-depth=N`. */
  tree(path = '', depth = 1, options?: CallOptions): Promise<TreeRead> {
    const c = this.#connection;
    let apiPath: string;
    try {
      apiPath = treePath(path);
      if (!Number.isInteger(depth) || depth < 1 || depth > 8) {
        throw new PlugboardError('BAD_INPUT', 'The depth must be a whole number from 1 to 8.');
      }
    } catch (error) {
      return Promise.reject(error);
    }
    return c.run(options, async (scope) => {
      const context = c.context(`read /restapi/${apiPath}`, {
        notFound: `There is no /restapi/${apiPath} in the API tree of ${c.controller}`,
      });
      const response = await scope.request({
        method: 'GET',
        path: apiPath,
        headers: { Range: `dli-depth=${depth}` },
      });
      if (response.status !== 200 && response.status !== 206 && response.status !== 207) {
        const error = errorForStatus(response, context);
        throw response.status === 404 ? new PlugboardError('BAD_INPUT', error.message, error.detail) : error;
      }
      // `$ref` leaves come back relative to the resource read on real units: hand them on absolute.
      const value = absoluteTreeRefs(apiPath, parseAnswer(response, v.unknown(), context));
      return { path: apiPath, depth, value };
    });
  }

  /**
   * Every meter value in one request (`GET meter/values/`), converted to V, A, kWh, W, °C, %.
   * null: the controller has no meters. Entries marked `internal` only with `internal: true`.
   */
  meters(options?: CallOptions & MeterReadOptions): Promise<MeterReading[] | null> {
    const c = this.#connection;
    return c.run(options, (scope) => readMeters(c, scope, { internal: options?.internal }));
  }
}

/** A path typed by a person (`relay/outlets/all;/name`) → percent-encoded segments with a trailing slash. */
export function treePath(path: string): string {
  if (/[?#]/.test(path)) throw new PlugboardError('BAD_INPUT', 'A tree path may not contain ? or #.');
  const segments = path
    .trim()
    .replace(/^\/?(restapi\/?)?/, '')
    .split('/')
    .filter((segment) => segment !== '');
  for (const segment of segments) {
    if (segment === '.' || segment === '..') {
      throw new PlugboardError(
        'BAD_INPUT',
        `A tree path may not contain "${segment}"; the API writes it as "!${segment}".`,
      );
    }
  }
  // Matrix syntax (`;`, `=`, `,`) and the `!` escape stay as typed; everything else is encoded.
  const encoded = segments.map((segment) =>
    encodeURIComponent(segment).replace(/%3B/gi, ';').replace(/%3D/gi, '=').replace(/%2C/gi, ','),
  );
  return encoded.length ? `${encoded.join('/')}/` : '';
}
