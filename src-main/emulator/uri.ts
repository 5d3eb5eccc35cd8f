import { badRequest, HttpError } from './http-error';

/**
 * One path segment after `/restapi/`. Plain keys address one child; the matrix forms select several:
 * `all;` every element, `=a,b` the listed keys (or fields: a projection), `field=value` the elements
 * whose `field` equals `value`.
 */
export type Step =
  | { kind: 'key'; key: string }
  | { kind: 'all' }
  | { kind: 'keys'; keys: string[] }
  | { kind: 'filter'; field: string; value: string };

export const API_PREFIX = '/restapi/';

function decode(raw: string, whole: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw badRequest(`The path segment "${whole}" has broken percent-encoding.`, 'bad_uri');
  }
}

/** Literal `.` and `..` segments are written `!.` and `!..`. */
function decodeKey(raw: string): string {
  if (raw === '!.' || raw === '!..') return raw.slice(1);
  return decode(raw, raw);
}

const SELECTORS =
  'all; (every element), =0,4 (the listed keys) or field=value (the elements whose field has that value)';

/**
 * A segment in matrix syntax that is none of the known selectors: 400 with a sentence naming it, what
 * is wrong with it and the forms that exist (what a real unit answers is not known; clients in the
 * wild look at the status only).
 */
function unknownSelector(raw: string): HttpError {
  const after = raw.startsWith('all;') ? raw.slice(4) : '';
  const problem = !after
    ? ''
    : /^[^=;,]+=[^=;]*$/.test(after)
      ? ` all; takes nothing after it; to select by a field, write the filter alone: ${after}.`
      : ' all; takes nothing after it.';
  return new HttpError(
    400,
    'unknown_selector',
    `The selector "${raw}" is not one this controller knows.${problem} A segment selects with ${SELECTORS}, one at a time.`,
    { selector: raw },
  );
}

export function parseSegment(raw: string): Step {
  if (raw === 'all;') return { kind: 'all' };
  if (raw.includes(';')) throw unknownSelector(raw);
  if (raw.startsWith('=')) {
    const keys = raw.slice(1).split(',');
    if (keys.some((key) => key.length === 0)) {
      throw badRequest(`The selection "${raw}" lists an empty key; write =0,4 or =name,state.`, 'bad_uri');
    }
    return { kind: 'keys', keys: keys.map((key) => decode(key, raw)) };
  }
  const equals = raw.indexOf('=');
  if (equals >= 0) {
    const field = raw.slice(0, equals);
    const value = raw.slice(equals + 1);
    if (field.length === 0 || value.includes('=')) {
      throw badRequest(
        `The filter "${raw}" is not of the form field=value (percent-encode = and ;).`,
        'bad_uri',
      );
    }
    return { kind: 'filter', field: decode(field, raw), value: decode(value.replace(/,/g, '%2C'), raw) };
  }
  if (raw.includes(',')) throw unknownSelector(raw);
  return { kind: 'key', key: decodeKey(raw) };
}

/** Parses the part after `/restapi/`, which ends with `/` (or is empty for the root). */
export function parseApiPath(rest: string): Step[] {
  if (rest === '') return [];
  const segments = rest.slice(0, -1).split('/');
  return segments.map(parseSegment);
}

/** Percent-encodes a key: everything but the unreserved characters. */
export function encodeKey(key: string): string {
  if (key === '.' || key === '..') return `!${key}`;
  return encodeURIComponent(key).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The absolute URI of a resource, e.g. `/restapi/relay/outlets/0/`. */
export function uriFor(path: readonly string[]): string {
  return API_PREFIX + path.map((key) => `${encodeKey(key)}/`).join('');
}
