/** The accounts suites' way to read a refusal: the PlugboardError a call was refused with. */
import { isPlugboardError, type PlugboardError } from '../../../src-main/shared/errors';

/** The PlugboardError `promise` rejects with; anything else (or no refusal) fails the test. */
export async function refusal(promise: Promise<unknown>): Promise<PlugboardError> {
  try {
    await promise;
  } catch (error) {
    if (isPlugboardError(error)) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}
