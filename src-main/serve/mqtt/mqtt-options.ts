/**
 * `plugboard serve --mqtt …`: the broker, how the service logs in to it (user and password from a file
 * or the systemd credential `plugboard.mqtt`, never the command line), how it trusts the broker's TLS
 * certificate (a CA file, or a pinned fingerprint), whom the MQTT door acts as, and the topic prefix.
 * Every mistake is a sentence naming the flag (exit 2), like the other flags of `plugboard serve`.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { Role } from '../../../src-preload/model';
import { parseGrant, type WrittenScope } from '../grants';
import { isFingerprint, normalizeFingerprint } from '../../dli/tls-pin';

export const MQTT_CREDENTIAL = 'plugboard.mqtt';
export const DEFAULT_MQTT_PREFIX = 'plugboard';
export const DEFAULT_MQTT_CLIENT = 'mqtt[observer]';
/** Home Assistant's discovery prefix (its default; Plugboard's entries live under it). */
export const HA_PREFIX = 'homeassistant';

export interface MqttConfig {
  /** `mqtt://host:port` or `mqtts://host:port`, without credentials. */
  url: string;
  credentials: { user: string; password: string } | null;
  /** Where the credentials came from (a path), for the start-up line; never the secret. */
  credentialSource: string | null;
  /** The CA certificate(s) the broker's certificate must chain to (PEM), or null: the system's. */
  ca: string | null;
  /** A pinned SHA-256 fingerprint of the broker's certificate, or null. */
  fingerprint: string | null;
  /** Whom commands over MQTT act as: the door's one identity. */
  client: { name: string; role: Role; written: WrittenScope | null };
  /** The root of Plugboard's topics. */
  prefix: string;
  /** Publish Home Assistant discovery entries (false: remove them). */
  haDiscovery: boolean;
}

export interface MqttFlags {
  mqtt?: string;
  'mqtt-credentials-file'?: string;
  'mqtt-ca'?: string;
  'mqtt-fingerprint'?: string;
  'mqtt-client'?: string;
  'mqtt-prefix'?: string;
  'no-ha-discovery'?: boolean;
}

/** The flags for node:util parseArgs. */
export const MQTT_FLAG_OPTIONS = {
  mqtt: { type: 'string' },
  'mqtt-credentials-file': { type: 'string' },
  'mqtt-ca': { type: 'string' },
  'mqtt-fingerprint': { type: 'string' },
  'mqtt-client': { type: 'string' },
  'mqtt-prefix': { type: 'string' },
  'no-ha-discovery': { type: 'boolean' },
} as const;

export const MQTT_USAGE = `  --mqtt mqtt[s]://HOST:PORT  publish the lab's state to this MQTT broker, with Home Assistant
                             discovery, and take commands on …/set (docs/mqtt.md)
  --mqtt-credentials-file PATH   the broker's "user:password" (chmod 600); under systemd the
                             credential ${MQTT_CREDENTIAL} is read instead
  --mqtt-ca PATH             the CA certificate (PEM) the broker's certificate must chain to
  --mqtt-fingerprint SHA256  or the broker's certificate's pinned SHA-256 fingerprint
  --mqtt-client 'NAME[ROLE SCOPE]'   whom commands over MQTT act as (default ${DEFAULT_MQTT_CLIENT}:
                             commands are refused until given a role), e.g. 'ha[operator tags=lab]'
  --mqtt-prefix PREFIX       the root of Plugboard's topics (default ${DEFAULT_MQTT_PREFIX})
  --no-ha-discovery          publish no Home Assistant discovery entries, and remove earlier ones`;

/** A usage mistake: the caller turns it into its own UsageError. */
export class MqttUsageError extends Error {}

const MQTT_FLAGS = Object.keys(MQTT_FLAG_OPTIONS).filter((f) => f !== 'mqtt');

export async function parseMqttFlags(flags: MqttFlags, env: NodeJS.ProcessEnv): Promise<MqttConfig | null> {
  if (flags.mqtt === undefined) {
    const given = MQTT_FLAGS.find((f) => flags[f as keyof MqttFlags] !== undefined);
    if (given) throw new MqttUsageError(`--${given} needs --mqtt mqtt[s]://HOST:PORT: give the broker too.`);
    return null;
  }
  const url = parseBrokerUrl(flags.mqtt);
  const secure = url.startsWith('mqtts:');
  if (flags['mqtt-ca'] !== undefined && flags['mqtt-fingerprint'] !== undefined)
    throw new MqttUsageError('--mqtt-ca and --mqtt-fingerprint are two ways to trust the broker: give one.');
  if (!secure && (flags['mqtt-ca'] !== undefined || flags['mqtt-fingerprint'] !== undefined))
    throw new MqttUsageError(
      `--mqtt ${flags.mqtt} is plain MQTT, so there is no certificate to check: use mqtts://, or leave out --mqtt-ca and --mqtt-fingerprint.`,
    );
  const fingerprint = flags['mqtt-fingerprint'];
  if (fingerprint !== undefined && !isFingerprint(fingerprint))
    throw new MqttUsageError(
      `--mqtt-fingerprint ${JSON.stringify(fingerprint)} is not a SHA-256 fingerprint (32 hex pairs, like AB:CD:…; \`openssl x509 -noout -fingerprint -sha256 -in broker.crt\` prints it).`,
    );
  const { credentials, source } = await readCredentials(flags['mqtt-credentials-file'], env);
  return {
    url,
    credentials,
    credentialSource: source,
    ca: flags['mqtt-ca'] === undefined ? null : await readCa(flags['mqtt-ca']),
    fingerprint: fingerprint === undefined ? null : normalizeFingerprint(fingerprint),
    client: parseClient(flags['mqtt-client'] ?? DEFAULT_MQTT_CLIENT),
    prefix: parsePrefix(flags['mqtt-prefix'] ?? DEFAULT_MQTT_PREFIX),
    haDiscovery: !flags['no-ha-discovery'],
  };
}

function parseBrokerUrl(text: string): string {
  let url: URL | null;
  try {
    url = new URL(text);
  } catch {
    url = null;
  }
  if (!url || !/^mqtts?:$/.test(url.protocol) || !url.hostname || (url.pathname && url.pathname !== '/'))
    throw new MqttUsageError(
      `--mqtt ${JSON.stringify(text)}: give the broker as mqtt://HOST:PORT or mqtts://HOST:PORT, like --mqtt mqtts://broker.lab:8883.`,
    );
  if (url.username || url.password)
    throw new MqttUsageError(
      `--mqtt: put no user or password in the address (the command line is visible to every account here): give them in --mqtt-credentials-file or the credential ${MQTT_CREDENTIAL}.`,
    );
  const port = url.port || (url.protocol === 'mqtts:' ? '8883' : '1883');
  return `${url.protocol}//${url.hostname}:${port}`;
}

function parseClient(text: string): MqttConfig['client'] {
  const match = /^([A-Za-z0-9._-]{1,64})(?:\[([^\]]*)\])?$/.exec(text.trim());
  if (!match)
    throw new MqttUsageError(
      `--mqtt-client ${JSON.stringify(text)}: give a name (letters, digits, ".", "_" or "-") and its role in brackets, like --mqtt-client 'home-assistant[operator tags=lab]'.`,
    );
  const name = match[1]!;
  const grant =
    match[2] === undefined
      ? { role: 'observer' as const, written: null }
      : parseGrant(match[2], '--mqtt-client', name, `${name}[operator tags=lab]`);
  if (typeof grant === 'string') throw new MqttUsageError(grant);
  return { name, role: grant.role, written: grant.written };
}

/** A topic prefix: one or more levels, no wildcards, no empty level, not starting with `$`. */
function parsePrefix(text: string): string {
  const levels = text.split('/');
  if (
    !text ||
    text.startsWith('$') ||
    levels.some((l) => !l || l.includes('+') || l.includes('#') || l.includes(String.fromCharCode(0))) ||
    text.length > 100
  )
    throw new MqttUsageError(
      `--mqtt-prefix ${JSON.stringify(text)}: give topic levels without wildcards or empty levels, like --mqtt-prefix lab-a/power.`,
    );
  return text;
}

async function readCa(file: string): Promise<string> {
  const text = await readFile(path.resolve(file), 'utf8').catch((error: NodeJS.ErrnoException) => {
    throw new MqttUsageError(`--mqtt-ca ${file} could not be read (${error.code ?? error.message}).`);
  });
  if (!text.includes('-----BEGIN CERTIFICATE-----'))
    throw new MqttUsageError(`--mqtt-ca ${file} holds no PEM certificate (-----BEGIN CERTIFICATE-----).`);
  return text;
}

/** The broker's user and password: the file given, else the systemd credential, else none. */
async function readCredentials(
  file: string | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ credentials: MqttConfig['credentials']; source: string | null }> {
  const directory = env.CREDENTIALS_DIRECTORY;
  const credential = directory ? path.join(directory, MQTT_CREDENTIAL) : null;
  let source: string | null = file ? path.resolve(file) : null;
  if (!source && credential && (await stat(credential).catch(() => null))) source = credential;
  if (!source) return { credentials: null, source: null };
  let text: string;
  try {
    if (file && process.platform !== 'win32' && ((await stat(source)).mode & 0o077) !== 0)
      throw new MqttUsageError(
        `--mqtt-credentials-file ${source} can be read by other users: make it private with \`chmod 600 ${source}\`.`,
      );
    text = await readFile(source, 'utf8');
  } catch (error) {
    if (error instanceof MqttUsageError) throw error;
    throw new MqttUsageError(
      `${source} could not be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message}).`,
    );
  }
  const line = text.split(/\r?\n/).find((l) => l.trim() && !l.trim().startsWith('#')) ?? '';
  const colon = line.indexOf(':');
  const user = colon > 0 ? line.slice(0, colon).trim() : '';
  const password = colon > 0 ? line.slice(colon + 1) : '';
  if (!user || !password)
    throw new MqttUsageError(
      `${source} holds no "user:password" line: write the broker's user, a colon and the password on one line.`,
    );
  return { credentials: { user, password }, source };
}
