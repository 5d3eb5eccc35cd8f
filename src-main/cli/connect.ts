/**
 * The global options as typed: the controller's address, the login, a certificate to trust. Passwords
 * are taken from --password, --password-stdin or PLUGBOARD_PASSWORD, and never printed.
 */
import { isFingerprint, normalizeFingerprint } from '../dli/tls-pin';
import type { Credentials } from '../shared/credentials';
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
