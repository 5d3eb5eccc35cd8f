/**
 * What a refused sign-in says: a wrong name or password in the same words whichever it was, and a wait
 * or a lock with the time it ends (UTC, as the service's log shows times), for the person and in detail
 * for a client (until, locked, which of name or address holds it, seconds to Retry-After).
 */
import { PlugboardError } from '../../shared/errors';
import type { Held } from './sign-in-limits';

function clock(ms: number): string {
  return `${new Date(ms).toISOString().slice(11, 19)} UTC`;
}

export function heldError(held: Held, now: number): PlugboardError {
  const what = held.kind === 'name' ? 'this name' : 'your address';
  const seconds = Math.max(1, Math.ceil((held.until - now) / 1000));
  const sentence = held.locked
    ? `Too many failed sign-ins for ${what}: it is locked until ${clock(held.until)}.`
    : `Too many failed sign-ins for ${what}: wait until ${clock(held.until)} before trying again.`;
  return new PlugboardError(
    'AUTH_FAILED',
    sentence,
    { until: held.until, locked: held.locked, held: held.kind, retryAfterSeconds: seconds },
    held.locked
      ? {
          action:
            "Try again then, or ask the lab service's administrator to set a new password (which unlocks it).",
        }
      : {},
  );
}

export function wrongError(next: Held | null, now: number): PlugboardError {
  if (next?.locked) return heldError(next, now);
  return new PlugboardError(
    'AUTH_FAILED',
    'The name or the password is wrong.',
    next ? { until: next.until, locked: false, held: next.kind } : undefined,
    {
      action: next
        ? `Check both; the next try is accepted from ${clock(next.until)}.`
        : 'Check both and sign in again; repeated failures are slowed and then locked for 15 minutes.',
    },
  );
}
