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
 * non-error value) where written, `{status, error}` where refused.
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
    if (outlet === undefined || entry === null || typeof entry !== 'object') return;
    const status = (entry as { status?: unknown }).status;
    if (typeof status === 'number' && status >= 400) {
      failures.push({ outlet, error: outletRefusal(connection, outlet, status, verb) });
    }
  });
  return failures;
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
