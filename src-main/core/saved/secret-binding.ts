/**
 * Where a stored secret may go. A password or token is sent only to the place it was saved (or last
 * confirmed) for: the same address (host and port), scheme, login method, user and, over HTTPS, the
 * same certificate. Anything else needs the person to type the secret again or to confirm explicitly
 * that the stored one may go there; a password saved for digest is never sent as Basic.
 */
import type { AuthKind } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import { hostPortKey, normaliseFingerprint } from '../../shared/controller-address';

/** Everything a stored secret is bound to. */
export interface SecretPlace {
  url: string;
  auth: AuthKind;
  user: string;
  fingerprint: string | null;
}

/** What differs between two places, each as a short phrase ("the address (… → …)"); empty when none. */
export function placeChanges(saved: SecretPlace, next: SecretPlace): string[] {
  const changes: string[] = [];
  const before = new URL(saved.url);
  const after = new URL(next.url);
  if (hostPortKey(saved.url) !== hostPortKey(next.url))
    changes.push(`the address (${before.host} → ${after.host})`);
  if (before.protocol !== after.protocol)
    changes.push(`the scheme (${before.protocol.slice(0, -1)} → ${after.protocol.slice(0, -1)})`);
  if (saved.auth !== next.auth) changes.push(`the login method (${saved.auth} → ${next.auth})`);
  else if (next.auth !== 'token' && saved.user !== next.user)
    changes.push(`the user (${saved.user} → ${next.user})`);
  if (after.protocol === 'https:' && next.fingerprint !== null && !sameFingerprint(saved, next))
    changes.push('the certificate');
  return changes;
}

function sameFingerprint(a: SecretPlace, b: SecretPlace): boolean {
  if (a.fingerprint === null || b.fingerprint === null) return a.fingerprint === b.fingerprint;
  return normaliseFingerprint(a.fingerprint) === normaliseFingerprint(b.fingerprint);
}

/** "a and b", "a, b and c". */
export function listWords(items: readonly string[]): string {
  return items.length < 2 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}

export function secretWord(auth: AuthKind): string {
  return auth === 'token' ? 'token' : 'password';
}

/** A password saved for digest would be sent as Basic (readable by anyone on the network): never. */
export function isBasicDowngrade(saved: SecretPlace, next: SecretPlace): boolean {
  return saved.auth === 'digest' && next.auth === 'basic';
}

/** How the person can give the secret again, and how they confirm the stored one (window or command line). */
export interface SecretPrompts {
  /** e.g. "type the password again". */
  retype: string;
  /** e.g. "confirm that the stored one may be sent there". */
  confirm: string;
}

/**
 * Throws (BAD_INPUT, detail.confirmSecret) when the stored secret of `name` would go somewhere it was not
 * saved for and the person has not confirmed that.
 */
export function checkSecretPlace(
  name: string,
  saved: SecretPlace,
  next: SecretPlace,
  confirmed: boolean,
  prompts: SecretPrompts,
): void {
  const changes = placeChanges(saved, next);
  if (changes.length === 0) return;
  const word = secretWord(saved.auth);
  const retype = prompts.retype.charAt(0).toUpperCase() + prompts.retype.slice(1);
  if (isBasicDowngrade(saved, next)) {
    throw new PlugboardError(
      'BAD_INPUT',
      `The stored password of "${name}" was saved for digest login and is never sent as Basic, which anyone on the network can read: ${prompts.retype} to switch to Basic.`,
      { confirmSecret: false, changed: changes.join('; ') },
    );
  }
  if (confirmed) return;
  throw new PlugboardError(
    'BAD_INPUT',
    `The stored ${word} of "${name}" was saved for another place: you changed ${listWords(changes)}. ${retype}, or ${prompts.confirm}.`,
    { confirmSecret: true, changed: changes.join('; ') },
  );
}
