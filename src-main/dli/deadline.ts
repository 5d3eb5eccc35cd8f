/**
 * A deadline for one HTTP exchange with a controller. It starts when the request goes on the wire (after
 * the controller's queue), so time spent waiting behind other requests never counts against it; each
 * send (a digest challenge's retry too) gets its own.
 */
import type { HttpMethod } from './types';

/** One send got no (complete) answer within its deadline. */
export class DeadlineExceeded extends Error {
  readonly timeoutMs: number;
  /** The method of the request that went unanswered: a state-changing one may have been carried out. */
  readonly method: HttpMethod;

  constructor(timeoutMs: number, method: HttpMethod, options?: { cause?: unknown }) {
    super(`no answer within ${timeoutMs} ms`, options);
    this.name = 'DeadlineExceeded';
    this.timeoutMs = timeoutMs;
    this.method = method;
  }
}

/**
 * Run `work` with a signal aborted by the caller's `outer` signal or after `timeoutMs`; a run the
 * deadline cut short fails with DeadlineExceeded. Signals are linked by hand, not with AbortSignal.any:
 * on Node 20 every combined signal stays reachable forever (nodejs/node#54614, #55351), which a poller
 * sending several requests a second turns into a steady leak.
 */
export async function withDeadline<T>(
  outer: AbortSignal,
  timeoutMs: number,
  method: HttpMethod,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const own = new AbortController();
  let expired = false;
  const timer = setTimeout(() => {
    expired = true;
    own.abort(new DeadlineExceeded(timeoutMs, method));
  }, timeoutMs);
  const forward = (): void => own.abort(outer.reason);
  if (outer.aborted) forward();
  else outer.addEventListener('abort', forward, { once: true });
  try {
    return await work(own.signal);
  } catch (error) {
    if (expired && !outer.aborted) throw new DeadlineExceeded(timeoutMs, method, { cause: error });
    throw error;
  } finally {
    clearTimeout(timer);
    outer.removeEventListener('abort', forward);
  }
}
