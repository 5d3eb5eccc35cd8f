/**
 * Carrying out one pdudaemon request through the Core, acting as the client that sent it
 * (`core.handlersAs(actor)`: the same calls, queue, keychain, reservations and activity log as the
 * window). Answers pdudaemon's way: accepted once the unit took the command, or the outlet's state; any
 * refusal is a PduRefusal with an HTTP status and one sentence.
 */
import type { Caller, ContractError, Handlers, OutletActionResult, Result } from '../../src-preload/contract';
import { type Clock, dispatch } from '../core/index';
import type { Logger } from '../shared/logging';
import { PduRefusal, type PduRequest } from './pdudaemon-request';
import { StateWatch, type EventSource } from './pdudaemon-state';
import { outletWords, resolveTarget, type PduTarget } from './pdudaemon-target';

export type PduAnswer = { kind: 'accepted' } | { kind: 'state'; on: boolean };

/** What the pdudaemon door needs of the Core. */
export interface PduCore extends EventSource {
  handlersAs(caller: Caller): Handlers;
}

export interface PduRunOptions {
  /** How long `wait=1` (and an unanswered request) waits for the controller to confirm, ms. */
  confirmTimeoutMs: number;
  /** Aborted when the listener closes: waits end with 503. */
  signal: AbortSignal;
  log: Logger;
  /** Timers for an on/off `delay` (the Core's clock: tests move it). */
  clock: Clock;
}

/** HTTP status per error code; RESERVED comes from the Core's reservations. */
const STATUS: Record<string, number> = {
  BAD_INPUT: 400,
  NOT_FOUND: 404,
  FORBIDDEN: 403,
  LOCKED: 423,
  RESERVED: 409,
  CRITICAL_UNCONFIRMED: 409,
  CANCELLED: 409,
  TIMEOUT: 504,
  INTERNAL: 500,
  // Another service leads the lab: the sentence names it.
  STANDBY: 503,
};

/**
 * pdudaemon has no way to confirm a critical outlet: the Core refuses it (CRITICAL_UNCONFIRMED), and this
 * door says where it can be confirmed.
 */
const CONFIRM_ELSEWHERE =
  'pdudaemon cannot confirm it: use the Plugboard window, or plugboard off/cycle with --yes.';

/** A Core error as pdudaemon's answer: its message (passed through verbatim) and what to do. */
function refusal(error: ContractError): PduRefusal {
  // A reservation's "reserved by <holder> until <time>: <reason>" goes out exactly as the Core said it.
  const action = error.code === 'CRITICAL_UNCONFIRMED' ? CONFIRM_ELSEWHERE : error.action;
  const sentence =
    action && (error.code as string) !== 'RESERVED' ? `${error.message} ${action}` : error.message;
  return new PduRefusal(STATUS[error.code] ?? 502, sentence);
}

function unwrap(result: Result<unknown>): OutletActionResult {
  if (!result.ok) throw refusal(result.error);
  const value = result.value as OutletActionResult;
  const failed = value.failed[0];
  if (failed) throw refusal(failed.error);
  return value;
}

function wait(clock: Clock, ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = clock.setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    const stop = () => {
      clock.clearTimeout(timer);
      reject(new PduRefusal(503, 'Plugboard is stopping: the delayed command was not sent.'));
    };
    if (signal.aborted) return stop();
    signal.addEventListener('abort', stop, { once: true });
  });
}

function refuseNotOnline(target: PduTarget): void {
  const state = target.state;
  if (state?.status === 'online') return;
  const why = state?.problem?.message ?? `it is ${state?.status ?? 'connecting'}`;
  throw new PduRefusal(
    502,
    `${target.controller.name} is not answering, so ${outletWords(target).toLowerCase()} has no confirmed state: ${why}`,
  );
}

export async function runPduRequest(
  core: PduCore,
  actor: Caller,
  request: PduRequest,
  options: PduRunOptions,
): Promise<PduAnswer> {
  const handlers = core.handlersAs(actor);
  const snapshot = await handlers['app/snapshot']({});
  const target = resolveTarget(snapshot, request.hostname, request.port);
  const watch = new StateWatch(core, target.controller.id, target.state);
  const words = outletWords(target);
  try {
    if (request.command === 'get-status') {
      refuseNotOnline(target);
      // Always a confirmed state: while a change is pending (just switched, cycling) the last reading may
      // be stale, so the answer waits for the controller to confirm it (`wait=1` changes nothing here).
      const outlet = await watch.settled(target.outlet, options.confirmTimeoutMs, options.signal, words);
      return { kind: 'state', on: outlet.physicalState };
    }
    const controllerId = target.controller.id;
    const on = request.command !== 'off';
    let result: OutletActionResult;
    if (request.command === 'reboot') {
      const input = { controllerId, outlet: target.outlet, delay: request.delay };
      result = unwrap(await dispatch(handlers, 'outlets/cycle', input, options.log));
    } else {
      // pdudaemon waits before an on or off given a delay (deprecated there, kept for its clients).
      if (request.delay > 0) await wait(options.clock, request.delay * 1000, options.signal);
      const input = { controllerId, outlets: [target.outlet], on };
      result = unwrap(await dispatch(handlers, 'outlets/set', input, options.log));
    }
    // Sent but unanswered: neither done nor failed until a poll settles it; so is every `wait=1`.
    if (request.wait || result.unconfirmed?.length) {
      const settled = await watch.settled(target.outlet, options.confirmTimeoutMs, options.signal, words);
      if (settled.physicalState !== on)
        throw new PduRefusal(
          502,
          `${words} is ${settled.physicalState ? 'on' : 'off'}: the controller did not carry out the ${request.command}.`,
        );
    }
    return { kind: 'accepted' };
  } finally {
    watch.close();
  }
}
