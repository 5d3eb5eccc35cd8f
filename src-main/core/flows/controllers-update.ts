/**
 * Changing a saved controller: its name, colour, address, login or pinned certificate, and trusting a
 * new certificate. A change that would reconnect is verified first; the stored secret goes to a changed
 * place only when the person confirmed it or typed it again (secret-binding.ts).
 */
import type { CallParsed, ControllerSummary } from '../../../src-preload/contract';
import { PlugboardError, isPlugboardError } from '../../shared/errors';
import { hostPortKey, normaliseControllerUrl } from '../../shared/controller-address';
import { secretOf, userOf, verify } from './controllers-add';
import { credentialsOf } from '../../shared/credentials';
import type { CoreContext } from './core-context';
import type { ControllerPatch } from '../saved/registry';
import { boundPlaceChanges } from '../saved/registry-envelope';
import { checkSecretPlace } from '../saved/secret-binding';

/** Failures that prove what was typed is wrong; others (offline, busy) do not stop saving a change. */
const REFUSES_CHANGE = new Set([
  'AUTH_FAILED',
  'NOT_A_CONTROLLER',
  'TLS_UNTRUSTED',
  'TLS_CHANGED',
  'BAD_INPUT',
]);

export async function updateController(
  ctx: CoreContext,
  input: CallParsed<'controllers/update'>,
): Promise<ControllerSummary> {
  const current = ctx.registry.getOrThrow(input.id);
  const demo = ctx.demos.get(current.id);
  const patch: ControllerPatch = {};
  if (input.name !== undefined) patch.name = input.name;
  if (input.colour !== undefined) patch.colour = input.colour;
  if (input.alias !== undefined) patch.alias = input.alias;
  if (input.tags !== undefined) patch.tags = input.tags;
  if (input.mqttTopic !== undefined) patch.mqttTopic = input.mqttTopic;
  if (input.url !== undefined) {
    patch.url = normaliseControllerUrl(input.url);
    const key = hostPortKey(patch.url);
    const other = ctx.registry.list().find((c) => c.id !== current.id && hostPortKey(c.url) === key);
    if (other) {
      throw new PlugboardError('BAD_INPUT', `${patch.url} is already saved as "${other.name}".`);
    }
  }
  if (input.fingerprint !== undefined) patch.fingerprint = input.fingerprint;
  let secret: string | undefined;
  if (input.auth) {
    patch.auth = input.auth.kind;
    patch.user = userOf(input.auth);
    secret = secretOf(input.auth);
    const kindChanged = (input.auth.kind === 'token') !== (current.auth === 'token');
    if (secret === undefined && (kindChanged || !current.hasSecret) && !demo) {
      throw new PlugboardError(
        'BAD_INPUT',
        input.auth.kind === 'token'
          ? `Enter the access token for ${current.name}.`
          : `Enter the password of user "${input.auth.user}" for ${current.name}.`,
      );
    }
  }
  const next = { ...current, ...patch } as ControllerSummary;
  // The stored secret is bound to where it was saved or last confirmed for, which the record no longer
  // names when the settings file was changed outside these checks (registry-envelope.ts).
  const stored =
    secret === undefined && current.hasSecret && !demo ? await ctx.registry.storedSecret(current.id) : null;
  const boundTo = stored?.place ?? current;
  const recordMoved = stored !== null && boundPlaceChanges(stored.place, current).length > 0;
  const reconnect =
    next.url !== current.url ||
    next.auth !== current.auth ||
    next.user !== current.user ||
    (patch.fingerprint !== undefined && (patch.fingerprint ?? null) !== current.fingerprint) ||
    secret !== undefined ||
    (recordMoved && input.reuseSecret === true);
  if (reconnect && secret === undefined && (current.hasSecret || demo)) {
    // The stored secret would go to the changed place: only when the person said so.
    const word = current.auth === 'token' ? 'token' : 'password';
    checkSecretPlace(current.name, boundTo, next, input.reuseSecret === true, {
      retype: `type the ${word} again`,
      confirm: 'confirm that the stored one may be sent there',
    });
  }
  if (reconnect && !demo) {
    const known = secret ?? stored?.secret ?? '';
    try {
      const pin = patch.fingerprint === undefined ? current.fingerprint : patch.fingerprint;
      await verify(ctx, next.url, credentialsOf(next, known), pin ?? null);
    } catch (error) {
      if (isPlugboardError(error) && REFUSES_CHANGE.has(error.code)) throw error;
    }
  }
  if (demo && secret !== undefined) demo.password = secret;
  // A secret typed now replaces one kept for this run only (credentials-session.ts).
  if (secret !== undefined) ctx.sessionSecrets.forget(current.id);
  const saved = await ctx.registry.update(current.id, patch, demo ? undefined : secret, {
    rebindSecret: reconnect && secret === undefined && !demo,
  });
  if (reconnect) await ctx.sessions.follow(saved);
  else ctx.sessions.rename(saved);
  return saved;
}

/**
 * Pin a certificate after TLS_CHANGED / TLS_UNTRUSTED and connect again. The stored secret goes to the
 * server with the new certificate only when the person confirmed it (`reuseSecret`) or typed it again.
 */
export async function trustCertificate(
  ctx: CoreContext,
  input: CallParsed<'controllers/trustCertificate'>,
): Promise<ControllerSummary> {
  const current = ctx.registry.getOrThrow(input.id);
  const again =
    input.secret === undefined
      ? {}
      : {
          auth: credentialsOf(current, input.secret),
        };
  return updateController(ctx, {
    id: input.id,
    fingerprint: input.fingerprint,
    ...again,
    ...(input.reuseSecret ? { reuseSecret: true } : {}),
  });
}
