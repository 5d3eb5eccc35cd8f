/**
 * The command line's exit codes: ONE table that every command follows, printed by `plugboard --help`
 * and shown in docs/cli.md (test/docs/exit-codes.test.ts keeps the two equal). Errors map to it in one place (`exitCodeFor`).
 */
import type { ErrorCode } from '../../src-preload/model';

export const EXIT_OK = 0;
/** Not done for another reason (the controller or Plugboard said why), or --wait saw no confirmation in time. */
export const EXIT_FAILED = 1;
/** The command line itself is wrong: nothing was sent. */
export const EXIT_USAGE = 2;
/**
 * A controller (or the Plugboard service) did not answer: offline, no route, or too slow; or only a
 * standby service answered, which switches nothing (try again, or give the leader's address too).
 */
export const EXIT_UNREACHABLE = 3;
/** The login was refused: wrong password or token, no permission for that, or a certificate to accept. */
export const EXIT_AUTH = 4;
/** Reserved by someone else (a reservation). */
export const EXIT_RESERVED = 5;
/** The outlet is locked on the unit (its keypad or web page): only there can it be changed. */
export const EXIT_LOCKED = 6;
/** Refused by Plugboard: a critical outlet switched off or cycled without --yes. */
export const EXIT_REFUSED = 7;
/** Several outlets or targets: some were done, some were not (each failure is on stderr). */
export const EXIT_PARTIAL = 8;

export const EXIT_TABLE: readonly (readonly [number, string])[] = [
  [EXIT_OK, 'done (with --wait: the unit confirmed the physical state)'],
  [EXIT_FAILED, 'not done for another reason (the message says why), or --wait timed out'],
  [EXIT_USAGE, 'usage: the command line is wrong; nothing was sent'],
  [
    EXIT_UNREACHABLE,
    'unreachable: a controller or the Plugboard service did not answer, or only a standby did',
  ],
  [EXIT_AUTH, 'authentication: login refused, no permission, or a certificate to accept'],
  [EXIT_RESERVED, 'reserved by someone else'],
  [EXIT_LOCKED, 'locked on the unit (keypad or its own web page)'],
  [EXIT_REFUSED, 'refused: a critical outlet needs --yes to be switched off or cycled'],
  [EXIT_PARTIAL, 'partial: several outlets or targets, some done and some not'],
];

/** The table as `plugboard --help` prints it. */
export function exitCodeHelp(): string {
  return `\nExit codes (every command):\n${EXIT_TABLE.map(([code, text]) => `  ${code}  ${text}`).join('\n')}\n`;
}

/** Error codes with an exit code of their own; every other code is EXIT_FAILED. */
const BY_ERROR: Partial<Record<string, number>> = {
  UNREACHABLE: EXIT_UNREACHABLE,
  TIMEOUT: EXIT_UNREACHABLE,
  // A standby service refused a change and the leader was not reached: nothing was done, as with no answer.
  STANDBY: EXIT_UNREACHABLE,
  AUTH_FAILED: EXIT_AUTH,
  FORBIDDEN: EXIT_AUTH,
  TLS_UNTRUSTED: EXIT_AUTH,
  TLS_CHANGED: EXIT_AUTH,
  // The reservations' error code (added with them): refused while someone else holds a reservation.
  RESERVED: EXIT_RESERVED,
  LOCKED: EXIT_LOCKED,
  // The Core's refusal of a critical outlet that would lose power unconfirmed (--yes confirms).
  CRITICAL_UNCONFIRMED: EXIT_REFUSED,
};

/** What the command line adds to the Core's refusal of a critical outlet: its own way to confirm. */
export const CONFIRM_WITH_YES = 'Run it again with --yes to confirm.';

/** A Core error as the command line says it: a critical outlet's refusal gets --yes as what to do. */
export function inCliTerms<E extends { code: string; action?: string }>(error: E): E {
  return error.code === 'CRITICAL_UNCONFIRMED' ? { ...error, action: CONFIRM_WITH_YES } : error;
}

/** The exit code for one error's code (a ContractError's or a PlugboardError's). */
export function exitCodeFor(code: ErrorCode | (string & {})): number {
  return BY_ERROR[code] ?? EXIT_FAILED;
}

/**
 * The exit code for a command over several targets: 0 when none failed; PARTIAL when some were done
 * and some not; else the failures' shared code, or FAILED when they differ.
 */
export function combinedExitCode(failures: readonly number[], done: number): number {
  if (failures.length === 0) return EXIT_OK;
  if (done > 0) return EXIT_PARTIAL;
  const [first, ...rest] = failures;
  return rest.every((code) => code === first) ? first! : EXIT_FAILED;
}
