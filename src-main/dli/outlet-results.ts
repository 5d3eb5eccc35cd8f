/** Reading per-outlet outcomes out of the controller's answers (207 Multi-Status, 409 bodies). */
import type { ContractError, OutletFailure } from '../../src-preload/model';
import type { Connection } from './connection';
import { PlugboardError } from '../shared/errors';
import { errorForStatus, parseAnswer } from './http-errors';
import { outletNumbersOf } from './outlet-numbers';
import { multiStatusSchema, refusedOutletsSchema } from './schemas';
import type { HttpResponse } from './transport';

/** The error for one outlet that refused, by the status the controller gave for it. */
export function outletRefusal(
  connection: Connection,
  outlet: number,
  status: number,
  verb: string,
): ContractError {
  const label = connection.outletLabel(outlet);
  if (status === 409) {
    return {
      code: 'LOCKED',
      message: `${capitalise(label)} on ${connection.controller} is locked, so it was not ${verb}.`,
      action: "Unlock it on the keypad or the controller's own web page.",
    };
  }
  if (status === 403) {
    return {
      code: 'FORBIDDEN',
      message: `${connection.who} may not switch ${label} on ${connection.controller}.`,
      action: 'Ask an administrator for access to that outlet.',
    };
  }
  return {
    code: 'DEVICE_ERROR',
    message: `${connection.controller} could not switch ${label} (status ${status}).`,
    action: 'Try again; if it keeps failing, reboot the controller.',
  };
}

/**
 * A 207 answer to a matrix write: one entry per selected outlet, in selection order; `null` (or any
 * non-error value) where written. An element that failed carries `error`, and not every unit adds a
 * `status` to it (reference §13), so either one marks a failure.
 */
export function multiStatusFailures(
  connection: Connection,
  response: HttpResponse,
  numbers: readonly number[],
  verb: string,
): OutletFailure[] {
  if (response.body.trim() === '') return [];
  const entries = parseAnswer(response, multiStatusSchema, connection.context(`${verb} outlets`));
  const failures: OutletFailure[] = [];
  entries.forEach((entry, i) => {
    const outlet = numbers[i];
    if (outlet === undefined || entry === null || typeof entry !== 'object' || Array.isArray(entry)) return;
    const { status, error } = entry as { status?: unknown; error?: unknown };
    const failedStatus = typeof status === 'number' && status >= 400 ? status : null;
    const hasError = error !== undefined && error !== null && error !== false && error !== '';
    if (failedStatus === null && !hasError) return;
    const reason = hasError ? errorText(error) : null;
    failures.push({ outlet, error: elementRefusal(connection, outlet, failedStatus, reason, verb) });
  });
  return failures;
}

/** The controller's words for a failed element (`"locked"`, or an object with a message). */
function errorText(error: unknown): string {
  if (typeof error === 'string') return error.trim();
  if (typeof error === 'object' && error !== null) {
    const message =
      (error as { message?: unknown; error?: unknown }).message ?? (error as { error?: unknown }).error;
    if (typeof message === 'string') return message.trim();
  }
  return JSON.stringify(error);
}

/** A failed element with a status, an `error`, or both: the status decides, else the error's words. */
function elementRefusal(
  connection: Connection,
  outlet: number,
  status: number | null,
  reason: string | null,
  verb: string,
): ContractError {
  const words = (reason ?? '').toLowerCase();
  const byWords = /lock/.test(words) ? 409 : /forbid|denied|access|permission/.test(words) ? 403 : null;
  const refusal = outletRefusal(connection, outlet, status ?? byWords ?? 0, verb);
  if (refusal.code !== 'DEVICE_ERROR' || status !== null) {
    return reason && refusal.code === 'DEVICE_ERROR'
      ? { ...refusal, message: `${refusal.message.replace(/\.$/, '')}: the controller answered "${reason}".` }
      : refusal;
  }
  return {
    code: 'DEVICE_ERROR',
    message: `${capitalise(connection.outletLabel(outlet))} on ${connection.controller} was not ${verb}: the controller answered "${reason ?? 'error'}".`,
    action: 'Try again; if it keeps failing, reboot the controller.',
  };
}

/**
 * `set_outlet_transient_states` refused as a whole (nothing switched): throw LOCKED/FORBIDDEN naming the
 * outlets the controller listed.
 */
export function wholeRefusal(connection: Connection, response: HttpResponse, action: string): PlugboardError {
  if (response.status !== 409 && response.status !== 403) {
    return errorForStatus(response, connection.context(action));
  }
  let outlets: number[];
  try {
    outlets = outletNumbersOf(
      parseAnswer(response, refusedOutletsSchema, connection.context(action)).outlets ?? [],
    );
  } catch {
    outlets = [];
  }
  const named = outlets.length ? outlets.map((n) => connection.outletLabel(n)).join(', ') : 'an outlet';
  if (response.status === 409) {
    return new PlugboardError(
      'LOCKED',
      `Nothing was switched on ${connection.controller}: ${named} ${outlets.length > 1 ? 'are' : 'is'} locked. Unlock ${outlets.length > 1 ? 'them' : 'it'} on the keypad or the controller's own web page, or leave ${outlets.length > 1 ? 'them' : 'it'} out.`,
      { outlets: outlets.join(',') },
    );
  }
  return new PlugboardError(
    'FORBIDDEN',
    `Nothing was switched on ${connection.controller}: ${lowerFirst(connection.who)} may not switch ${named}. Ask an administrator for access, or leave ${outlets.length > 1 ? 'them' : 'it'} out.`,
    { outlets: outlets.join(',') },
  );
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function lowerFirst(text: string): string {
  return text.charAt(0).toLowerCase() + text.slice(1);
}
