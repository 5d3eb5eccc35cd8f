import type { ContractError, ErrorCode, ErrorDetail } from '../../src-preload/model';

/**
 * The one error type thrown inside the main process. Its message is for a person: what went wrong and
 * what to do next. The shells turn it into `{ ok: false, error }` data at the contract boundary.
 */
export class PlugboardError extends Error {
  readonly code: ErrorCode;
  readonly detail: ErrorDetail | undefined;

  constructor(code: ErrorCode, message: string, detail?: ErrorDetail, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'PlugboardError';
    this.code = code;
    this.detail = detail;
  }

  toContractError(): ContractError {
    return this.detail
      ? { code: this.code, message: this.message, detail: this.detail }
      : { code: this.code, message: this.message };
  }
}

export function isPlugboardError(error: unknown): error is PlugboardError {
  return error instanceof PlugboardError;
}
