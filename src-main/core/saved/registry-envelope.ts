/**
 * What the keychain holds for a saved controller: the secret together with the place it was saved (or
 * last confirmed) for. The settings file is shared and may be edited by hand or by a writer that skips
 * Plugboard's checks, so the rule "a stored secret goes only where it was saved for" cannot rest on the
 * file: every read that sends a secret compares the record with the place kept next to the secret.
 *
 * Stored as JSON: {"v":1,"secret":"…","for":{"origin":"https://host:port","auth":"digest",
 * "user":"admin","fingerprint":"AB:…"|null}}. A value in any other form was saved by Plugboard 0.1 (a
 * bare secret); it is bound to the record as it is when first read, and saved again as an envelope.
 */
import type { AuthKind, ControllerSummary } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import { isBasicDowngrade, listWords, placeChanges, secretWord, type SecretPlace } from './secret-binding';

const ENVELOPE_VERSION = 1;
const AUTH_KINDS: readonly AuthKind[] = ['digest', 'basic', 'token'];

/** A secret read from the keychain, with the place it is bound to (null: saved by 0.1, not yet bound). */
export interface StoredSecret {
  secret: string;
  place: SecretPlace | null;
}

/** The place of a saved controller, as the envelope records it. */
export function placeOf(record: SecretPlace): SecretPlace {
  return {
    url: record.url,
    auth: record.auth,
    user: record.auth === 'token' ? '' : record.user,
    fingerprint: record.fingerprint ?? null,
  };
}

/** The keychain value for `secret`, bound to `place`. */
export function sealSecret(secret: string, place: SecretPlace): string {
  const bound = placeOf(place);
  return JSON.stringify({
    v: ENVELOPE_VERSION,
    secret,
    for: { origin: bound.url, auth: bound.auth, user: bound.user, fingerprint: bound.fingerprint },
  });
}

/** A keychain value read back: an envelope, or (anything else) a bare secret saved by 0.1. */
export function openSecret(raw: string): StoredSecret {
  let parsed: unknown;
  try {
    parsed = raw.startsWith('{') ? JSON.parse(raw) : null;
  } catch {
    parsed = null;
  }
  const envelope = parsed as { v?: unknown; secret?: unknown; for?: Record<string, unknown> } | null;
  const bound = envelope?.for;
  if (
    envelope === null ||
    typeof envelope !== 'object' ||
    envelope.v !== ENVELOPE_VERSION ||
    typeof envelope.secret !== 'string' ||
    typeof bound !== 'object' ||
    bound === null ||
    typeof bound.origin !== 'string' ||
    !AUTH_KINDS.includes(bound.auth as AuthKind) ||
    typeof bound.user !== 'string' ||
    !(bound.fingerprint === null || typeof bound.fingerprint === 'string') ||
    !URL.canParse(bound.origin)
  ) {
    return { secret: raw, place: null };
  }
  return {
    secret: envelope.secret,
    place: {
      url: bound.origin,
      auth: bound.auth as AuthKind,
      user: bound.user,
      fingerprint: bound.fingerprint as string | null,
    },
  };
}

/** What differs between the place a secret is bound to and where it would go now; empty when nothing. */
export function boundPlaceChanges(bound: SecretPlace, next: SecretPlace): string[] {
  return placeChanges(placeOf(bound), placeOf(next));
}

/**
 * The refusal when the saved record no longer names the place its secret is bound to (the settings file
 * was changed outside Plugboard's checks): AUTH_FAILED, so polling waits for the person, with
 * detail.confirmSecret as every other "the secret would go elsewhere" refusal.
 */
export function secretElsewhere(
  controller: Pick<ControllerSummary, 'name'>,
  bound: SecretPlace,
  next: SecretPlace,
): PlugboardError {
  const changes = boundPlaceChanges(bound, next);
  const word = secretWord(bound.auth);
  // A password saved for digest is never sent as Basic: only typing it again helps.
  const downgrade = isBasicDowngrade(bound, next);
  return new PlugboardError(
    'AUTH_FAILED',
    `The stored ${word} of "${controller.name}" was saved for ${describePlace(bound)}, but the settings now name another place (${listWords(changes)} changed): Plugboard sent it nowhere.`,
    { confirmSecret: !downgrade, changed: changes.join('; ') },
    {
      action: downgrade
        ? `Type the ${word} again in the controller's System tab (Connection) to use Basic login.`
        : `If the new place is right, type the ${word} again in the controller's System tab (Connection).`,
    },
  );
}

function describePlace(place: SecretPlace): string {
  return place.auth === 'token' ? place.url : `${place.url} (${place.auth} login as ${place.user})`;
}
