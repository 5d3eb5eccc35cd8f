/**
 * Turning what went wrong on the wire into errors a person can act on. Every message names the
 * controller and what Plugboard was doing; the error's action says what to do next.
 */
import * as v from 'valibot';
import { PlugboardError } from '../shared/errors';
import { neutralise, TEXT_LIMITS } from '../shared/text';
import type { HttpResponse } from './transport';

/** What a request was for, so errors can say it in words. */
export interface RequestContext {
  controller: string;
  /** Verb phrase: "switch outlet 3 on", "read the outlets". */
  action: string;
  /** Who is logged in, for FORBIDDEN messages: `User "bob"` or `The access token`. */
  who: string;
  /** What a 403 means here, when more specific than "not allowed" (what went wrong, one sentence). */
  forbidden?: string;
  /** What to do about that 403, when more specific than asking an administrator. */
  forbiddenAction?: string;
  /** What a 404 from the API itself means here (e.g. "There is no path x in the API tree."). */
  notFound?: string;
  /** How to read a 409 that is not about a locked outlet (e.g. an unknown script function). */
  conflict?: string;
}

const errorBody = v.looseObject({ error: v.optional(v.string()), message: v.optional(v.string()) });

/** The controller's own short explanation, if its error body has one. */
export function deviceExplanation(response: HttpResponse): { code: string | null; message: string | null } {
  try {
    const parsed = v.safeParse(errorBody, JSON.parse(response.body));
    if (!parsed.success) return { code: null, message: null };
    const clean = (text: string | undefined): string | null =>
      text ? neutralise(text, TEXT_LIMITS.unitMessage).trim() || null : null;
    return { code: clean(parsed.output.error), message: clean(parsed.output.message) };
  } catch {
    return { code: null, message: null };
  }
}

function withReason(sentence: string, reason: string | null): string {
  return reason ? `${sentence} (the controller says: ${reason.replace(/\.$/, '')}).` : `${sentence}.`;
}

/** An error for a status the caller did not expect. */
export function errorForStatus(response: HttpResponse, context: RequestContext): PlugboardError {
  const { controller, action } = context;
  const status = response.status;
  const said = deviceExplanation(response);
  const reason = said.message ?? said.code;
  const detail = { status };
  if (status === 400 || status === 415) {
    return new PlugboardError(
      'BAD_INPUT',
      withReason(`${controller} refused to ${action}: the request was not valid`, reason),
      detail,
    );
  }
  if (status === 403) {
    const sentence = context.forbidden ?? `${context.who} may not ${action} on ${controller}`;
    return new PlugboardError('FORBIDDEN', withReason(sentence, reason), detail, {
      action: context.forbiddenAction ?? 'Ask an administrator for access, or log in as one.',
    });
  }
  if (status === 404) {
    const sentence = context.notFound ?? `${controller} has no such resource (while trying to ${action})`;
    return new PlugboardError('DEVICE_ERROR', withReason(sentence, reason), detail);
  }
  if (status === 409) {
    if (said.code === 'locked') {
      return new PlugboardError(
        'LOCKED',
        `${controller} refused to ${action}: the outlet is locked.`,
        detail,
        {
          action: "Unlock it on the keypad or the controller's own web page.",
        },
      );
    }
    const sentence = context.conflict ?? `${controller} refused to ${action} in its current state`;
    return new PlugboardError('BAD_INPUT', withReason(sentence, reason), detail);
  }
  if (status === 405) {
    // The unit knows the resource but not this use of it: a setting its firmware keeps read-only.
    const allow = response.headers.get('allow');
    const only =
      allow && /^[A-Z, ]+$/.test(allow) ? `; it accepts only ${allow.replace(/\s*,\s*/g, ', ')} there` : '';
    return new PlugboardError(
      'BAD_INPUT',
      withReason(`${controller} refused to ${action}: its API does not allow that change${only}`, reason),
      { ...detail, ...(allow ? { allow } : {}) },
      {
        action:
          "This unit's firmware does not let Plugboard change it: change it on the controller's own web page, or update the firmware.",
      },
    );
  }
  if (status >= 300 && status < 400) {
    const location = response.headers.get('location');
    return new PlugboardError(
      'DEVICE_ERROR',
      `${controller} redirected the request to ${location ?? 'another address'} (while trying to ${action}).`,
      { ...detail, location },
      { action: "Check the controller's address (http or https, port)." },
    );
  }
  if (status >= 500) {
    return new PlugboardError(
      'DEVICE_ERROR',
      withReason(`${controller} failed with an internal error (${status}) while trying to ${action}`, reason),
      detail,
      { action: 'Try again; if it keeps failing, reboot the controller.' },
    );
  }
  return new PlugboardError(
    'DEVICE_ERROR',
    withReason(
      `${controller} did not ${action}: it answered with status ${status}, which Plugboard does not know`,
      reason,
    ),
    detail,
    { action: "Try again; if it answers the same, do it on the controller's own web page." },
  );
}

/** Whether a body is JSON (by its type or by parsing), used to tell the API's own 404 from a web page. */
export function isJsonBody(response: HttpResponse): boolean {
  if (/json/i.test(response.headers.get('content-type') ?? '')) return true;
  try {
    JSON.parse(response.body);
    return true;
  } catch {
    return false;
  }
}

/** Whether a page looks like a Digital Loggers controller's login page. */
export function looksLikeDli(response: HttpResponse): boolean {
  return /digital\s*loggers|web\s*power\s*switch|\bDLI\b/i.test(response.body);
}

/** Parse a JSON answer and check its shape; nonsense becomes DEVICE_ERROR (or NOT_A_CONTROLLER for web pages). */
export function parseAnswer<S extends v.GenericSchema>(
  response: HttpResponse,
  schema: S,
  context: RequestContext,
): v.InferOutput<S> {
  let value: unknown;
  try {
    value = JSON.parse(response.body);
  } catch {
    if (/html/i.test(response.headers.get('content-type') ?? '') || /^\s*</.test(response.body)) {
      throw new PlugboardError(
        'NOT_A_CONTROLLER',
        `${context.controller} answered with a web page instead of data while trying to ${context.action}.`,
        undefined,
        { action: 'Check the address: it should be a power controller with the REST-style API.' },
      );
    }
    throw new PlugboardError(
      'DEVICE_ERROR',
      `${context.controller} answered with malformed data while trying to ${context.action}.`,
      undefined,
      { action: 'Try again; if it keeps happening, reboot the controller.' },
    );
  }
  const parsed = v.safeParse(schema, value);
  if (!parsed.success) {
    const where = v.getDotPath(parsed.issues[0]!);
    throw new PlugboardError(
      'DEVICE_ERROR',
      `${context.controller} answered something Plugboard does not understand while trying to ${context.action}${where ? ` (at ${where})` : ''}; its firmware may be unusual.`,
      undefined,
      { action: 'Please report this, with the firmware version.' },
    );
  }
  return parsed.output;
}
