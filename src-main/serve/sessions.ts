/**
 * Who a request to the `api` listener is, from its `Authorization: Bearer …`: one of the service's
 * tokens (tokens.ts), or a session an account signed in with (`POST /api/v1/sign-in`), which acts as
 * the account's name with its role and scope. The session is read from the lab store at every request,
 * so a revoked session, a disabled account or a new role applies at once.
 */
import type { IncomingMessage } from 'node:http';
import type { ActivityDoor, Caller } from '../../src-preload/model';
import type { ListenerContext } from './listener';
import { bearerToken, tokenCaller } from './tokens';

/** The secret after `Bearer`, or null when the request sends none. */
export function bearerSecret(request: IncomingMessage): string | null {
  const header = request.headers.authorization;
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match ? match[1]! : null;
}

/** The caller a request's bearer names through `door`: a token, a live session, or null. */
export async function bearerCaller(
  request: IncomingMessage,
  context: ListenerContext,
  door: ActivityDoor,
): Promise<Caller | null> {
  const token = context.tokens.length > 0 ? bearerToken(request, context.tokens) : null;
  if (token) return tokenCaller(token, door);
  const secret = bearerSecret(request);
  return secret === null ? null : sessionCaller(context, secret, door);
}

/** The account whose live session `secret` is, as a caller through `door`; null when it is none. */
export async function sessionCaller(
  context: ListenerContext,
  secret: string,
  door: ActivityDoor,
): Promise<Caller | null> {
  const signedIn = await context.core.accounts?.session(secret);
  return signedIn ? { door, who: signedIn.name, role: signedIn.role, scope: signedIn.scope } : null;
}
