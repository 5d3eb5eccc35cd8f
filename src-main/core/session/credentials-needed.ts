/**
 * The "password needed" state: a saved controller whose password or token is not available
 * (no keychain, a locked one, or its entry is gone) is not polled with an empty password — no request
 * that must fail its login is sent, and nothing counts as a wrong password. Its status is
 * `password_needed` until someone gives the secret (`controllers/providePassword`).
 */
import type { ControllerSummary } from '../../../src-preload/model';
import { PlugboardError, isPlugboardError } from '../../shared/errors';

/** Why the secret is not there, as the error says it. */
export type MissingBecause = 'not-kept' | 'keychain-unavailable';

/** What a person sees, and what the session's status is decided from (`detail.passwordNeeded`). */
export function passwordNeeded(
  summary: Pick<ControllerSummary, 'name' | 'auth' | 'user'>,
  because: MissingBecause,
  cause?: unknown,
): PlugboardError {
  const what = summary.auth === 'token' ? 'access token' : `password of ${summary.user}`;
  const why =
    because === 'keychain-unavailable'
      ? 'the system keychain cannot be read now'
      : 'it is not available here (no keychain, a locked one, or its entry is gone)';
  return new PlugboardError(
    'AUTH_FAILED',
    `Plugboard needs the ${what} for ${summary.name}: ${why}. Nothing was sent to it.`,
    { passwordNeeded: true, user: summary.auth === 'token' ? '' : summary.user },
    {
      ...(cause === undefined ? {} : { cause }),
      action:
        summary.auth === 'token'
          ? `Enter the access token in ${summary.name}'s System tab (Connection).`
          : `Enter the password of ${summary.user} where Plugboard asks for it.`,
    },
  );
}

/** Whether an error is the "password needed" state rather than a controller's answer. */
export function isPasswordNeeded(error: unknown): boolean {
  return isPlugboardError(error) && error.detail?.passwordNeeded === true;
}

/** A keychain that could not be read (not loaded, no Secret Service, locked): keychain-errors.ts marks it. */
export function isKeychainTrouble(error: unknown): boolean {
  return isPlugboardError(error) && typeof error.detail?.keychainError === 'string';
}
