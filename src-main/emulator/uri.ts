import { badRequest } from './http-error';

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

export function parseSegment(raw: string): Step {
  if (raw === 'all;') return { kind: 'all' };
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
    if (field.length === 0 || value.includes('=') || value.includes(';') || field.includes(';')) {
      throw badRequest(
        `The filter "${raw}" is not of the form field=value (percent-encode = and ;).`,
        'bad_uri',
      );
    }
    return { kind: 'filter', field: decode(field, raw), value: decode(value.replace(/,/g, '%2C'), raw) };
  }
  if (raw.includes(';') || raw.includes(',')) {
    throw badRequest(`The segment "${raw}" uses matrix syntax this controller does not know.`, 'bad_uri');
  }
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
