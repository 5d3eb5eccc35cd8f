/**
 * Adding a saved controller. A new controller is verified first (identity, firmware,
 * administrator or not, capabilities), and every failure comes back as the error a person can act on:
 * wrong password, REST API off, not a controller, unreachable, a certificate to accept (TLS_UNTRUSTED
 * with detail.fingerprint; the window retries with `fingerprint`). Secrets go only to the keychain (demo
 * controllers: to memory).
 */
import type { CallParsed, ControllerSummary } from '../../../src-preload/contract';
import { DliClient } from '../../dli/client';
import { PlugboardError, isPlugboardError } from '../../shared/errors';
import { isKeychainTrouble } from '../session/credentials-needed';
import type { ControllerDescription } from '../../dli/types';
import { credentialsOf, type Credentials } from '../../shared/credentials';
import { hostPortKey, normaliseControllerUrl } from '../../shared/controller-address';
import type { CoreContext } from './core-context';

export type AuthInput = CallParsed<'controllers/add'>['auth'];

export function secretOf(auth: AuthInput): string | undefined {
  return auth.kind === 'token' ? auth.token : auth.password;
}

export function userOf(auth: AuthInput): string {
  return auth.kind === 'token' ? '' : auth.user;
}

/** Log in and read everything "add controller" shows; the client is closed afterwards. */
export async function verify(
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

/** Refuse an address already saved (same host and port): BAD_INPUT naming the saved one. */
export function refuseSavedAddress(ctx: CoreContext, url: string): void {
  const same = ctx.registry.list().find((c) => hostPortKey(c.url) === hostPortKey(url));
  if (same) {
    throw new PlugboardError(
      'BAD_INPUT',
      `${url} is already saved as "${same.name}". Edit that one instead.`,
      { savedId: same.id },
    );
  }
}

/** What a verified controller is saved with (besides its description). */
export interface NewController {
  url: string;
  auth: { kind: AuthInput['kind']; user: string };
  secret: string;
  name?: string | undefined;
  colour?: string | undefined;
  alias?: string | undefined;
  tags?: string[] | undefined;
  fingerprint?: string | undefined;
  /** The topic root the unit publishes its outlets under (MQTT). */
  mqttTopic?: string | null | undefined;
}

/**
 * Save a verified controller with its secret (bound to its address and login) and start its session.
 * The registry saves the record and the secret together or neither; without a keychain that takes it,
 * the record is saved and the secret kept for this session only.
 */
export async function saveVerified(
  ctx: CoreContext,
  input: NewController,
  description: ControllerDescription,
): Promise<ControllerSummary> {
  refuseSavedAddress(ctx, input.url);
  const name = input.name ?? uniqueName(ctx, description.identity.controllerName || new URL(input.url).host);
  const record = {
    name,
    url: input.url,
    auth: input.auth.kind,
    user: input.auth.user,
    fingerprint: description.fingerprint ?? input.fingerprint ?? null,
    ...(input.colour ? { colour: input.colour } : {}),
    ...(input.alias ? { alias: input.alias } : {}),
    ...(input.tags ? { tags: input.tags } : {}),
    ...(input.mqttTopic ? { mqttTopic: input.mqttTopic } : {}),
  };
  let summary: ControllerSummary;
  try {
    summary = await ctx.registry.add(record, input.secret);
  } catch (error) {
    // No keychain to take it: saved without it, the secret kept until this Core stops (as a password
    // given with "remember" is); `controllers/secretWhere` then answers 'session'.
    if (!isKeychainTrouble(error)) throw error;
    const why = isPlugboardError(error) ? error.message : String(error);
    ctx.log(
      `${name} is saved, but the system keychain did not take its secret, so it is kept only until Plugboard stops. ${why}`,
    );
    summary = await ctx.registry.add(record, null);
    ctx.sessionSecrets.keep(summary, input.secret);
  }
  // Saved is saved: a session that fails to start is logged, and does not report the add as failed
  // (a bulk add would otherwise say "not added" for a controller that is saved with its secret).
  await ctx.sessions
    .start(summary, description)
    .catch((error: unknown) => ctx.log(`could not start polling ${summary.name}`, error));
  return summary;
}

export async function addController(
  ctx: CoreContext,
  input: CallParsed<'controllers/add'>,
): Promise<ControllerSummary> {
  const url = normaliseControllerUrl(input.url);
  refuseSavedAddress(ctx, url);
  const secret = secretOf(input.auth);
  if (!secret) {
    throw new PlugboardError(
      'BAD_INPUT',
      input.auth.kind === 'token'
        ? 'Enter the access token to add this controller.'
        : `Enter the password of user "${input.auth.user}" to add this controller.`,
    );
  }
  const auth = { kind: input.auth.kind, user: userOf(input.auth) };
  const description = await verify(
    ctx,
    url,
    credentialsOf({ auth: auth.kind, user: auth.user }, secret),
    input.fingerprint ?? null,
  );
  return saveVerified(ctx, { ...input, url, auth, secret }, description);
}
