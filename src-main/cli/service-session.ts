/**
 * The CLI's words for a kept session (link/service-session.ts keeps it in the keychain, shared with a
 * desk's labs): what to run when the service no longer takes it.
 */
import { PlugboardError } from '../shared/errors';

export {
  forgetSession,
  keepSession,
  keptSession,
  serviceError,
  sessionAccount,
} from '../link/service-session';

/** The sentence for a kept session the service no longer takes (expired, revoked, account disabled). */
export function sessionRefused(where: string): PlugboardError {
  return new PlugboardError(
    'AUTH_FAILED',
    `The Plugboard service at ${where} no longer accepts the session this computer kept for it: it expired, was revoked, or its account was disabled.`,
    undefined,
    { action: `Sign in again: plugboard sign-in --service ${where} --account NAME.` },
  );
}
