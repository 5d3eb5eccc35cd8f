import type { AuthKind, ControllerSummary } from '../../src-preload/model';
import { PlugboardError } from './errors';

/**
 * How Plugboard logs in to a controller: the REST client sends them, the Core and the CLI build them from
 * a saved controller and its keychain secret. Basic is sent only when chosen explicitly (it needs
 * plaintext logins allowed).
 */
export type Credentials =
  | { kind: 'digest'; user: string; password: string }
  | { kind: 'basic'; user: string; password: string }
  /** An access token `<client_id>.<secret>` (firmware ≥ 1.10), sent as `Authorization: Bearer …`. */
  | { kind: 'token'; token: string };

/** A saved login: its method and user (empty for a token). */
export interface SavedLogin {
  auth: AuthKind;
  user: string;
}

/** The credentials for a login and its secret: the token alone, or the user and the password. */
export function credentialsOf(login: SavedLogin, secret: string): Credentials {
  return login.auth === 'token'
    ? { kind: 'token', token: secret }
    : { kind: login.auth, user: login.user, password: secret };
}

/** The client's credentials for a saved controller and its secret; AUTH_FAILED when there is no secret. */
export function credentialsFor(
  summary: SavedLogin & Pick<ControllerSummary, 'name'>,
  secret: string | null,
): Credentials {
  if (secret === null || secret === '') {
    const what = summary.auth === 'token' ? 'access token' : `password for user "${summary.user}"`;
    throw new PlugboardError(
      'AUTH_FAILED',
      `No ${what} is available for ${summary.name}: it is not in the keychain. Enter it again in the controller's System tab (Connection).`,
    );
  }
  return credentialsOf(summary, secret);
}
