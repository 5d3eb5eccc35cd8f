/**
 * Adding a saved controller. A new controller is verified first (identity, firmware,
 * administrator or not, capabilities), and every failure comes back as the error a person can act on:
 * wrong password, REST API off, not a controller, unreachable, a certificate to accept (TLS_UNTRUSTED
 * with detail.fingerprint; the window retries with `fingerprint`). Secrets go only to the keychain (demo
 * controllers: to memory).
 */
import type { CallParsed, ControllerSummary } from '../../src-preload/contract';
import { DliClient } from '../dli/client';
import { PlugboardError } from '../shared/errors';
import type { ControllerDescription } from '../dli/types';
import { credentialsOf, type Credentials } from '../shared/credentials';
import { hostPortKey, normaliseControllerUrl } from '../shared/controller-address';
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
  const auth = { kind: input.auth.kind, user: userOf(input.auth) };
  const description = await verify(
    ctx,
    url,
    credentialsOf({ auth: auth.kind, user: auth.user }, secret),
    input.fingerprint ?? null,
  );
  const name = input.name ?? uniqueName(ctx, description.identity.controllerName || new URL(url).host);
  const summary = await ctx.registry.add(
    {
      name,
      url,
      auth: auth.kind,
      user: auth.user,
      fingerprint: description.fingerprint ?? input.fingerprint ?? null,
      ...(input.colour ? { colour: input.colour } : {}),
      ...(input.alias ? { alias: input.alias } : {}),
      ...(input.tags ? { tags: input.tags } : {}),
    },
    secret,
  );
  await ctx.sessions.start(summary, description);
  return summary;
}
