/**
 * From global options (or the environment, or a saved controller) to a connected client. Passwords are
 * taken from --password, --password-stdin, PLUGBOARD_PASSWORD or the keychain, and never printed.
 */
import {
  type ControllerRegistry,
  boundPlaceChanges,
  checkSecretPlace,
  type SecretPlace,
} from '../core/config';
import { DliClient } from '../dli/client';
import { PlugboardError, isPlugboardError } from '../shared/errors';
import { isFingerprint, normalizeFingerprint } from '../dli/tls-pin';
import { credentialsOf, type Credentials } from '../shared/credentials';
import type { ControllerSummary } from '../../src-preload/model';
import { normaliseControllerUrl } from '../shared/controller-address';
import { UsageError, excerpt, type Terminal } from './io';

/** The global options, as commander hands them over. */
export interface GlobalOptions {
  url?: string;
  controller?: string;
  user?: string;
  password?: string;
  passwordStdin?: boolean;
  token?: string;
  json?: boolean;
  acceptFingerprint?: string;
  reuseSecret?: boolean;
  service?: string;
  serviceToken?: string;
  serviceTokenFile?: string;
  serviceFingerprint?: string;
}

/**
 * The saved controllers in Plugboard's config folder, secrets in the OS keychain. Imported on first use:
 * the config file's libraries and the keychain's are half of what a `--url` command would otherwise load.
 */
export async function openRegistry(terminal: Terminal): Promise<ControllerRegistry> {
  const { openSavedControllers } = await import('./saved-controllers');
  return openSavedControllers(terminal);
}

export function checkedFingerprint(text: string | undefined): string | null {
  if (text === undefined) return null;
  if (!isFingerprint(text)) {
    throw new UsageError(
      '--accept-fingerprint must be a SHA-256 fingerprint: 64 hex digits, pairs may be separated by colons.',
    );
  }
  return normalizeFingerprint(text);
}

/**
 * A controller address as typed (--url or PLUGBOARD_URL), in its saved form. Anything but
 * `http[s]://host[:port]` is a usage error found before anything is sent; an address with a user or
 * password in it is never echoed.
 */
export function checkedUrl(text: string, where: string): string {
  try {
    return normaliseControllerUrl(text);
  } catch {
    if (/^([a-z][a-z0-9+.-]*:\/\/)?[^/?#]*@/i.test(text.trim())) {
      throw new UsageError(
        `${where} must not contain a user name or password: give them with --user and --password-stdin (or --token).`,
      );
    }
    if (!text.trim()) throw new UsageError(`${where} is empty: give an address like http://192.168.0.100.`);
    throw new UsageError(
      `${where} "${excerpt(text.trim())}" is not an http:// or https:// address: give one like http://192.168.0.100 or https://pdu-3.lab:8443.`,
    );
  }
}

/** Where the URL came from, for messages. */
export function urlSource(options: GlobalOptions): string {
  return options.url !== undefined ? '--url' : 'PLUGBOARD_URL';
}

/** Warn that --password is readable by every user of this machine (the process list). */
function warnVisiblePassword(terminal: Terminal): void {
  terminal.warn(
    'plugboard: warning: --password is visible to every user of this machine in the process list; use --password-stdin, PLUGBOARD_PASSWORD or a saved controller (its password stays in the OS keychain) instead.',
  );
}

/** Credentials from the command line and environment; null when none were given. */
export async function credentialsFrom(
  options: GlobalOptions,
  terminal: Terminal,
  defaultUser: string | null,
): Promise<Credentials | null> {
  const env = terminal.io.env;
  const sources = [
    options.password !== undefined,
    options.passwordStdin === true,
    options.token !== undefined,
  ];
  if (sources.filter(Boolean).length > 1) {
    throw new UsageError('Give only one of --password, --password-stdin and --token.');
  }
  if (options.token !== undefined) {
    // Checked before anything is sent, and never echoed: it is a secret.
    if (!/^\S+$/.test(options.token))
      throw new UsageError('--token is empty or contains spaces: paste the access token exactly as issued.');
    return { kind: 'token', token: options.token };
  }
  if (options.password !== undefined) warnVisiblePassword(terminal);
  let password = options.password;
  if (options.passwordStdin) password = await terminal.readLine('the password');
  password ??= env.PLUGBOARD_PASSWORD;
  if (password === undefined || password === '') return null;
  const user = options.user ?? env.PLUGBOARD_USER ?? defaultUser ?? 'admin';
  return { kind: 'digest', user, password };
}

/** Credentials from the command line and environment, which must give some (a usage error if not). */
export async function requiredCredentials(options: GlobalOptions, terminal: Terminal): Promise<Credentials> {
  const credentials = await credentialsFrom(options, terminal, null);
  if (!credentials) {
    throw new UsageError('Give a password (--password, --password-stdin or PLUGBOARD_PASSWORD) or --token.');
  }
  return credentials;
}

export interface Target {
  client: DliClient;
  /** How the controller is named in messages. */
  name: string;
}

/** The controller the command talks to: --controller NAME (saved) or --url (or PLUGBOARD_URL). */
export async function connect(options: GlobalOptions, terminal: Terminal): Promise<Target> {
  if (options.url !== undefined && options.controller !== undefined) {
    throw new UsageError('Give either --url or --controller, not both.');
  }
  const pinned = checkedFingerprint(options.acceptFingerprint);
  if (options.controller !== undefined) return connectSaved(options, terminal, pinned);
  const typed = options.url ?? terminal.io.env.PLUGBOARD_URL;
  if (!typed)
    throw new UsageError('Say which controller: --url http://host, --controller NAME, or set PLUGBOARD_URL.');
  const url = checkedUrl(typed, urlSource(options));
  const credentials = await requiredCredentials(options, terminal);
  const client = new DliClient({ url, credentials, fingerprint: pinned });
  return { client, name: client.controller };
}

async function connectSaved(
  options: GlobalOptions,
  terminal: Terminal,
  pinned: string | null,
): Promise<Target> {
  const registry = await openRegistry(terminal);
  const saved = registry.find(options.controller!);
  if (!saved) {
    const names = registry.list().map((c) => `"${c.name}"`);
    throw new PlugboardError(
      'NOT_FOUND',
      `No saved controller is called "${excerpt(options.controller!)}".${names.length ? ` Saved: ${names.join(', ')}.` : ' Add one with: controllers add NAME --url …'}`,
    );
  }
  const given = await credentialsFrom(options, terminal, saved.user || null);
  let credentials: Credentials;
  if (given === null) {
    const stored = await registry.storedSecret(saved.id);
    if (stored === null) {
      throw new UsageError(
        `No password or token is saved for "${saved.name}"; give --password-stdin or --token.`,
      );
    }
    checkSavedSecretPlace(saved, stored.place, options, pinned);
    // Confirmed for a record changed outside Plugboard's checks: the secret is bound to it from now on.
    if (boundPlaceChanges(stored.place, saved).length > 0)
      await registry.update(saved.id, {}, undefined, { rebindSecret: true });
    const secret = stored.secret;
    credentials = credentialsOf({ auth: saved.auth, user: options.user ?? saved.user }, secret);
  } else {
    credentials = given.kind === 'digest' && saved.auth === 'basic' ? { ...given, kind: 'basic' } : given;
  }
  const client = new DliClient({
    url: saved.url,
    credentials,
    name: saved.name,
    fingerprint: pinned ?? saved.fingerprint,
  });
  return { client, name: saved.name };
}

/**
 * The saved secret goes only where it was saved for: another user (--user) or another certificate
 * (--accept-fingerprint), or a saved record changed outside Plugboard's checks (its secret is bound to
 * the place it was saved for: registry-envelope.ts), needs it typed again (--password-stdin) or --reuse-secret.
 */
function checkSavedSecretPlace(
  saved: ControllerSummary,
  bound: SecretPlace,
  options: GlobalOptions,
  pinned: string | null,
): void {
  const next = {
    ...saved,
    user: saved.auth === 'token' ? '' : (options.user ?? saved.user),
    fingerprint: pinned ?? saved.fingerprint,
  };
  try {
    checkSecretPlace(saved.name, bound, next, options.reuseSecret === true, {
      retype: `give the ${saved.auth === 'token' ? 'token with --token' : 'password with --password-stdin'}`,
      confirm: 'add --reuse-secret to send the saved one',
    });
  } catch (error) {
    if (isPlugboardError(error)) throw new UsageError(error.message);
    throw error;
  }
}
