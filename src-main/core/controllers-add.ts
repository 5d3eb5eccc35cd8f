/**
 * Adding and changing saved controllers. A new controller is verified first (identity, firmware,
 * administrator or not, capabilities), and every failure comes back as the error a person can act on:
 * wrong password, REST API off, not a controller, unreachable, a certificate to accept (TLS_UNTRUSTED
 * with detail.fingerprint; the window retries with `fingerprint`). Secrets go only to the keychain (demo
 * controllers: to memory).
 */
import type { CallParsed, ControllerSummary } from '../../src-preload/contract';
import { DliClient } from '../dli/client';
import { PlugboardError, isPlugboardError } from '../shared/errors';
import type { ControllerDescription } from '../dli/types';
import { credentialsOf, type Credentials } from '../shared/credentials';
import { hostPortKey, normaliseControllerUrl } from '../shared/controller-address';
import type { CoreContext } from './core-context';
import type { ControllerPatch } from './registry';
import { boundPlaceChanges } from './registry-envelope';
import { checkSecretPlace } from './secret-binding';

type AuthInput = CallParsed<'controllers/add'>['auth'];

function secretOf(auth: AuthInput): string | undefined {
  return auth.kind === 'token' ? auth.token : auth.password;
}

function userOf(auth: AuthInput): string {
  return auth.kind === 'token' ? '' : auth.user;
}

/** Log in and read everything "add controller" shows; the client is closed afterwards. */
async function verify(
  ctx: CoreContext,
  url: string,
  creds: Credentials,
  fingerprint: string | null,
): Promise<ControllerDescription> {
  const client = new DliClient({
    url,
    credentials: creds,
    fingerprint,
    ...(ctx.requestTimeoutMs ? { timeoutMs: ctx.requestTimeoutMs } : {}),
  });
  try {
    return await client.describe({ priority: 'interactive' });
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** `name`, or `name 2`, `name 3`… — the first not yet saved (case-insensitive). */
export function uniqueName(ctx: CoreContext, name: string): string {
  const taken = new Set(ctx.registry.list().map((c) => c.name.toLowerCase()));
  const base = name.trim().slice(0, 60) || 'Controller';
  if (!taken.has(base.toLowerCase())) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`.toLowerCase())) return `${base} ${n}`;
}

export async function addController(
  ctx: CoreContext,
  input: CallParsed<'controllers/add'>,
): Promise<ControllerSummary> {
  const url = normaliseControllerUrl(input.url);
  const same = ctx.registry.list().find((c) => hostPortKey(c.url) === hostPortKey(url));
  if (same) {
    throw new PlugboardError(
      'BAD_INPUT',
      `${url} is already saved as "${same.name}". Edit that one instead.`,
    );
  }
  const secret = secretOf(input.auth);
  if (!secret) {
    throw new PlugboardError(
      'BAD_INPUT',
      input.auth.kind === 'token'
        ? 'Enter the access token to add this controller.'
        : `Enter the password of user "${input.auth.user}" to add this controller.`,
    );
  }
  const login = { auth: input.auth.kind, user: userOf(input.auth) };
  const description = await verify(ctx, url, credentialsOf(login, secret), input.fingerprint ?? null);
  const name = input.name ?? uniqueName(ctx, description.identity.controllerName || new URL(url).host);
  const summary = await ctx.registry.add(
    {
      name,
      url,
      auth: login.auth,
      user: login.user,
      fingerprint: description.fingerprint ?? input.fingerprint ?? null,
      ...(input.colour ? { colour: input.colour } : {}),
    },
    secret,
  );
  await ctx.sessions.start(summary, description);
  return summary;
}

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
  const saved = await ctx.registry.update(current.id, patch, demo ? undefined : secret, {
    rebindSecret: reconnect && secret === undefined && !demo,
  });
  if (reconnect) await ctx.sessions.start(saved);
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

/** Forget a controller: its session, its secret, its outlets in groups and settings, its demo emulator. */
export async function removeController(ctx: CoreContext, id: string): Promise<void> {
  ctx.registry.getOrThrow(id);
  await ctx.sessions.stop(id);
  await ctx.registry.remove(id);
  await ctx.settings.forgetController(id);
  const demo = ctx.demos.get(id);
  ctx.demos.delete(id);
  await demo?.emulator.close();
}
