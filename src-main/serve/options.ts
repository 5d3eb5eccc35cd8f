/**
 * `plugboard serve`'s flags, checked before anything starts: every mistake is a sentence naming the
 * flag and what to give instead (exit 2).
 */
import { readFile, stat } from 'node:fs/promises';
import { isIP } from 'node:net';
import { hostname } from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { plugboardConfigDir } from '../core/config';
import { isLoopback, parseAllow, type ClientNetworks } from './network';
import { parseTokens, TOKENS_CREDENTIAL, type Token } from './tokens';
import {
  MQTT_FLAG_OPTIONS,
  MQTT_USAGE,
  MqttUsageError,
  parseMqttFlags,
  type MqttConfig,
  type MqttFlags,
} from './mqtt/mqtt-options';
import { OIDC_OPTIONS, OIDC_USAGE, parseOidc, type OidcConfig, type OidcFlags } from './oidc-options';

export const LISTENER_NAMES = ['web', 'api', 'pdudaemon'] as const;
export type ListenerName = (typeof LISTENER_NAMES)[number];

/** Where each listener goes without an address: loopback; the pdudaemon port is the one its clients use. */
export const DEFAULT_PORTS: Record<ListenerName, number> = { web: 0, api: 16422, pdudaemon: 16421 };

export interface ListenSpec {
  name: ListenerName;
  host: string;
  port: number;
}

export type TlsChoice =
  { kind: 'off' } | { kind: 'self-signed' } | { kind: 'files'; cert: string; key: string };

export interface ServeConfig {
  configDir: string;
  listeners: ListenSpec[];
  allow: ClientNetworks | null;
  tokens: Token[];
  /** Where the tokens came from, for the start-up lines. */
  tokenSource: string | null;
  hostNames: string[];
  /** For the JSON API listener: on a lab network TLS is on (self-signed) unless --no-tls. */
  tls: TlsChoice;
  /** How long requests under way may take to finish once a shutdown starts (--shutdown-grace). */
  shutdownGraceMs: number;
  /** This service's name among the lab's services (--name; default the machine's host name). */
  name: string;
  /** The address clients use for this service (--advertise), or null when none is known. */
  advertise: string | null;
  /** Serve the window to signed-in accounts on the api listener (--web-window; api-window.ts). */
  webWindow: boolean;
  /** The MQTT broker to publish to and take commands from (--mqtt), or null. */
  mqtt: MqttConfig | null;
  /** Signing in through the lab's identity provider (oidc-options.ts), or null. */
  oidc: OidcConfig | null;
  help: boolean;
}

/** The shutdown's grace period without --shutdown-grace, and the longest one it takes. */
export const DEFAULT_SHUTDOWN_GRACE_S = 10;
const MAX_SHUTDOWN_GRACE_S = 3600;

export class UsageError extends Error {}

export const SERVE_USAGE = `Usage: plugboard serve [--listen NAME[=ADDR:PORT]]... [options]

Runs Plugboard's Core as a service over the saved controllers, with these listeners:
  web        the window for a browser (loopback only; prints its address with a token)
  api        JSON status API (/api/v1/...) and Prometheus /metrics, default 127.0.0.1:${DEFAULT_PORTS.api}
  pdudaemon  the pdudaemon HTTP and TCP protocol, default 127.0.0.1:${DEFAULT_PORTS.pdudaemon}
Without --listen all of them start on loopback; with it, only those named.

  --listen NAME[=ADDR:PORT]  start listener NAME, on ADDR:PORT (IPv6 as [ADDR]:PORT)
  --allow CIDR[,CIDR]        client networks allowed on a non-loopback listener; repeatable.
                             NAME=CIDR[ROLE SCOPE] names pdudaemon's clients from there, e.g.
                             'ci=10.20.0.0/16[operator tags=farm]' (a plain CIDR: operators)
  --token-file PATH          bearer tokens, one "name[role]:secret" a line (chmod 600), role
                             observer, operator or admin, then a scope if any (tags=a,b
                             controllers=… outlets=<controller>:<n>); "name:secret" only reads.
                             Under systemd the credential ${TOKENS_CREDENTIAL} is read instead
  --host-name NAME           a DNS name clients use for this machine (Host check); repeatable
  --tls-cert PATH --tls-key PATH   the API's certificate (PEM); else a self-signed one on a lab network
  --no-tls                   serve the API over plain HTTP even on a lab network
  --shutdown-grace SECONDS   on SIGTERM, how long requests under way may take to finish before
                             every connection is closed (default ${DEFAULT_SHUTDOWN_GRACE_S})
  --name NAME                this service's name among the lab's services, said by a standby
                             when it names the leader (default: the host name)
  --advertise URL            the address clients use for this service (default: the api
                             listener's, when it listens beyond loopback)
  --web-window               also serve the window on the api listener (/, /sign-in): people
                             sign in with their accounts; over HTTPS on a lab network
${MQTT_USAGE}
${OIDC_USAGE}
  --config-dir DIR           Plugboard's config folder (default: as the app, or $PLUGBOARD_CONFIG_DIR)
  --help                     show this text`;

export async function parseServeArgs(args: string[], env: NodeJS.ProcessEnv): Promise<ServeConfig> {
  let values: MqttFlags & {
    listen?: string[];
    allow?: string[];
    'token-file'?: string;
    'host-name'?: string[];
    'tls-cert'?: string;
    'tls-key'?: string;
    'no-tls'?: boolean;
    'shutdown-grace'?: string;
    'config-dir'?: string;
    name?: string;
    advertise?: string;
    'web-window'?: boolean;
    help?: boolean;
  } & OidcFlags;
  try {
    ({ values } = parseArgs({
      args,
      strict: true,
      allowPositionals: false,
      options: {
        listen: { type: 'string', multiple: true },
        allow: { type: 'string', multiple: true },
        'token-file': { type: 'string' },
        'host-name': { type: 'string', multiple: true },
        'tls-cert': { type: 'string' },
        'tls-key': { type: 'string' },
        'no-tls': { type: 'boolean' },
        'shutdown-grace': { type: 'string' },
        'config-dir': { type: 'string' },
        name: { type: 'string' },
        advertise: { type: 'string' },
        'web-window': { type: 'boolean' },
        ...OIDC_OPTIONS,
        help: { type: 'boolean', short: 'h' },
        ...MQTT_FLAG_OPTIONS,
      },
    }));
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const configDir = values['config-dir'] ? path.resolve(values['config-dir']) : plugboardConfigDir({ env });
  const listeners = (values.listen ?? LISTENER_NAMES.map((name) => name)).map(parseListen);
  for (const name of LISTENER_NAMES) {
    if (listeners.filter((l) => l.name === name).length > 1)
      throw new UsageError(`--listen ${name} is given twice: one address per listener.`);
  }
  const allow = values.allow === undefined ? null : parseAllow(values.allow.join(','));
  if (typeof allow === 'string') throw new UsageError(allow);
  const hostNames = (values['host-name'] ?? []).map((name) => {
    if (!/^[A-Za-z0-9]([A-Za-z0-9.-]{0,251}[A-Za-z0-9])?$/.test(name) || isIP(name))
      throw new UsageError(`--host-name ${JSON.stringify(name)} is not a DNS name like lab-pdu.example.org.`);
    return name;
  });
  const { tokens, tokenSource } = await readTokens(values['token-file'], env);
  const shutdownGraceMs = parseGrace(values['shutdown-grace']);
  const mqtt = await parseMqttFlags(values, env).catch((error: unknown) => {
    throw error instanceof MqttUsageError ? new UsageError(error.message) : error;
  });
  const oidc = await parseOidc(values, env);
  if (typeof oidc === 'string') throw new UsageError(oidc);
  if (oidc && !listeners.some((l) => l.name === 'api'))
    throw new UsageError('--oidc-issuer signs people in on the api listener: add --listen api.');

  for (const listener of listeners) {
    if (isLoopback(listener.host)) continue;
    if (listener.name === 'web')
      throw new UsageError(
        `--listen web=${listener.host}:${listener.port}: the web window serves only loopback (127.0.0.1), since its only login is a per-run token. Reach it from another machine with \`ssh -L\`.`,
      );
    if (listener.name === 'pdudaemon' && !allow)
      throw new UsageError(
        `--listen pdudaemon=${listener.host}:${listener.port} faces the network, and pdudaemon's protocol has no login (pduclient and labgrid send none, so tokens cannot help): give the client networks that may switch power (--allow 192.168.10.0/24), or listen on 127.0.0.1.`,
      );
    if (!allow && tokens.length === 0)
      throw new UsageError(
        `--listen ${listener.name}=${listener.host}:${listener.port} faces the network: give the client networks that may connect (--allow 192.168.10.0/24) or tokens (--token-file), or listen on 127.0.0.1.`,
      );
  }
  const cert = values['tls-cert'];
  const key = values['tls-key'];
  if ((cert === undefined) !== (key === undefined))
    throw new UsageError('--tls-cert and --tls-key go together: give both PEM files, or neither.');
  if (cert !== undefined && values['no-tls'])
    throw new UsageError('--no-tls contradicts --tls-cert: give one or the other.');
  const apiOnNetwork = listeners.some((l) => l.name === 'api' && !isLoopback(l.host));
  const tls: TlsChoice =
    cert !== undefined && key !== undefined
      ? { kind: 'files', cert: path.resolve(cert), key: path.resolve(key) }
      : apiOnNetwork && !values['no-tls']
        ? { kind: 'self-signed' }
        : { kind: 'off' };
  if (values['web-window']) checkWebWindow(listeners, tls);
  return {
    configDir,
    listeners,
    allow,
    tokens,
    tokenSource,
    hostNames,
    tls,
    shutdownGraceMs,
    name: parseName(values.name),
    advertise:
      values.advertise === undefined
        ? defaultAdvertise(listeners, tls, hostNames)
        : parseAdvertise(values.advertise),
    webWindow: values['web-window'] ?? false,
    mqtt,
    oidc,
    help: values.help ?? false,
  };
}

/**
 * The window on the api listener signs people in with a password: on a lab network only over HTTPS
 * (a password and a session cross it), as `POST /api/v1/sign-in` also demands.
 */
function checkWebWindow(listeners: ListenSpec[], tls: TlsChoice): void {
  const api = listeners.find((l) => l.name === 'api');
  if (!api)
    throw new UsageError(
      '--web-window is served by the api listener, which is not started: add --listen api (or --listen api=ADDR:PORT).',
    );
  if (!isLoopback(api.host) && tls.kind === 'off')
    throw new UsageError(
      `--web-window with --no-tls: the api listener (${api.host}:${api.port}) faces the network, and people would send their passwords and sessions in clear. Leave out --no-tls (a self-signed certificate is made), give --tls-cert and --tls-key, or listen on 127.0.0.1.`,
    );
}

function parseName(text: string | undefined): string {
  if (text === undefined) return hostname() || 'plugboard';
  const name = text.trim();
  if (!name || name.length > 100 || [...name].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    throw new UsageError(
      `--name ${JSON.stringify(text)}: give a short name for this service, like --name lab-a.`,
    );
  return name;
}

function parseAdvertise(text: string): string {
  let url: URL | null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (!url || !/^https?:$/.test(url.protocol) || url.username || url.password)
    throw new UsageError(
      `--advertise ${JSON.stringify(text)}: give the URL clients use for this service, like --advertise https://lab-a.example.org:${DEFAULT_PORTS.api}.`,
    );
  return url.origin;
}

/** The api listener's URL when it listens beyond loopback (a wildcard address: this machine's name). */
function defaultAdvertise(listeners: ListenSpec[], tls: TlsChoice, hostNames: string[]): string | null {
  const api = listeners.find((l) => l.name === 'api' && !isLoopback(l.host));
  if (!api || api.port === 0) return null;
  const wildcard = api.host === '0.0.0.0' || api.host === '::';
  const host = hostNames[0] ?? (wildcard ? hostname() : api.host.includes(':') ? `[${api.host}]` : api.host);
  return `${tls.kind === 'off' ? 'http' : 'https'}://${host}:${api.port}`;
}

function parseGrace(text: string | undefined): number {
  if (text === undefined) return DEFAULT_SHUTDOWN_GRACE_S * 1000;
  const seconds = Number(text);
  if (!/^\d+(\.\d{1,3})?$/.test(text.trim()) || seconds > MAX_SHUTDOWN_GRACE_S)
    throw new UsageError(
      `--shutdown-grace ${JSON.stringify(text)}: give seconds from 0 to ${MAX_SHUTDOWN_GRACE_S}, like --shutdown-grace 10.`,
    );
  return Math.round(seconds * 1000);
}

function parseListen(text: string): ListenSpec {
  const equals = text.indexOf('=');
  const name = (equals < 0 ? text : text.slice(0, equals)) as ListenerName;
  if (!LISTENER_NAMES.includes(name))
    throw new UsageError(
      `--listen ${JSON.stringify(text)}: unknown listener ${JSON.stringify(name)}; the listeners are ${LISTENER_NAMES.join(', ')}.`,
    );
  if (equals < 0) return { name, host: '127.0.0.1', port: DEFAULT_PORTS[name] };
  const where = text.slice(equals + 1);
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(where);
  const host = match ? (match[1] ?? match[2]!) : '';
  const resolved = host === 'localhost' ? '127.0.0.1' : host;
  if (!match && !where.startsWith('[') && (where.match(/:/g) ?? []).length > 1)
    throw new UsageError(
      `--listen ${text}: write an IPv6 address in brackets, like ${name}=[::1]:${DEFAULT_PORTS[name] || 8080}.`,
    );
  if (!match || !isIP(resolved))
    throw new UsageError(
      `--listen ${text}: give the address as ADDR:PORT with an IP address, like ${name}=192.168.10.5:${DEFAULT_PORTS[name] || 8080} or ${name}=[::1]:${DEFAULT_PORTS[name] || 8080}.`,
    );
  const port = Number(match[3]);
  if (port > 65_535) throw new UsageError(`--listen ${text}: the port must be from 0 to 65535.`);
  return { name, host: resolved, port };
}

async function readTokens(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ tokens: Token[]; tokenSource: string | null }> {
  const credentials = env.CREDENTIALS_DIRECTORY;
  const credential = credentials ? path.join(credentials, TOKENS_CREDENTIAL) : null;
  let source: string | null = file ? path.resolve(file) : null;
  if (!source && credential && (await stat(credential).catch(() => null))) source = credential;
  if (!source) return { tokens: [], tokenSource: null };
  let text: string;
  try {
    if (file && process.platform !== 'win32') {
      const mode = (await stat(source)).mode;
      if ((mode & 0o077) !== 0)
        throw new UsageError(
          `--token-file ${source} can be read by other users: make it private with \`chmod 600 ${source}\`.`,
        );
    }
    text = await readFile(source, 'utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `--token-file ${source} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
  }
  const tokens = parseTokens(text, source);
  if (typeof tokens === 'string') throw new UsageError(tokens);
  return { tokens, tokenSource: source };
}
