import type { ContractError, ErrorCode, ErrorDetail } from '../../src-preload/model';

export interface PlugboardErrorOptions {
  cause?: unknown;
  /** What to do next, for a person ("Check the address and port."); the message says what went wrong. */
  action?: string;
}

/**
 * The one error type thrown inside the main process. Its message is for a person and says what went
 * wrong; its action, when there is one, says what to do next. The shells turn it into
 * `{ ok: false, error }` data at the contract boundary.
 */
export class PlugboardError extends Error {
  readonly code: ErrorCode;
  readonly detail: ErrorDetail | undefined;
  readonly action: string | undefined;

  constructor(code: ErrorCode, message: string, detail?: ErrorDetail, options?: PlugboardErrorOptions) {
    super(message, options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'PlugboardError';
    this.code = code;
    this.detail = detail;
    this.action = options?.action;
  }

  toContractError(): ContractError {
    return {
      code: this.code,
      message: this.message,
      ...(this.action ? { action: this.action } : {}),
      ...(this.detail ? { detail: this.detail } : {}),
    };
  }
}

export function isPlugboardError(error: unknown): error is PlugboardError {
  return error instanceof PlugboardError;
}

/** What went wrong and what to do, as one line (the CLI, notifications, anything without two places). */
export function errorSentence(error: Pick<ContractError, 'message' | 'action'>): string {
  return error.action ? `${error.message} ${error.action}` : error.message;
}

/**
 * The Core's words for something that went wrong inside Plugboard itself (a bug, not the controller):
 * `log` gets the cause with its stack, the person gets a sentence and never the raw exception.
 */
export function internalError(
  doing: string,
  cause: unknown,
  log: (message: string, error?: unknown) => void,
): PlugboardError {
  log(`internal error while trying to ${doing}`, cause);
  return new PlugboardError(
    'INTERNAL',
    `Plugboard hit an internal error while trying to ${doing}; the details are in its log.`,
    undefined,
    {
      cause,
      action: 'Try again; if it keeps happening, restart Plugboard and report the problem with the log.',
    },
  );
}

/** Whether a write failed because the disk (or the user's quota) is full. */
export function isDiskFull(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  return code === 'ENOSPC' || code === 'EDQUOT';
}
