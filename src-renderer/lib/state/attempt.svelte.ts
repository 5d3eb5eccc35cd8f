import type { ContractError, Result } from '../../../src-preload/model';

/** Why an action did not happen: `context` says which ("The controller was not rebooted."). */
export interface Failure {
  context: string;
  error: ContractError;
}

/**
 * One component's actions and the failure of the last one, shown with <ErrorMessage>: each attempt
 * clears the previous failure, marks the component busy while the request runs, and keeps the error
 * with its context if the request fails.
 */
export class Attempt {
  busy = $state(false);
  failure = $state<Failure | null>(null);

  /** Run `request`; its result is returned as is. */
  async run<T>(context: string, request: () => Promise<Result<T>>): Promise<Result<T>> {
    this.busy = true;
    this.failure = null;
    try {
      const result = await request();
      if (!result.ok) this.failure = { context, error: result.error };
      return result;
    } finally {
      this.busy = false;
    }
  }
}
