/**
 * `$ref` leaves of a depth-limited read. Real units write them relative to the resource read (a read of
 * `config/` answers `{"hostname": {"$ref": "hostname/"}}`, meaning `config/hostname/`; reference §13,
 * from power_switch_pro); the emulator writes them absolute (`/restapi/relay/outlets/0/`). Both are
 * resolved as a browser resolves a link, against the resource read, and handed on absolute.
 */

/** A `$ref` found in a read of `base` (below /restapi/) → its path below /restapi/; null if outside it. */
export function resolveTreeRef(base: string, ref: string): string | null {
  let url: URL;
  try {
    url = new URL(ref, `http://unit/restapi/${base}`);
  } catch {
    return null;
  }
  if (url.origin !== 'http://unit' || !url.pathname.startsWith('/restapi/')) return null;
  try {
    return decodeURIComponent(url.pathname.slice('/restapi/'.length));
  } catch {
    return url.pathname.slice('/restapi/'.length);
  }
}

/**
 * A copy of `value` (read from `base`) with every `{"$ref": …}` leaf made absolute (`/restapi/…`), so it
 * can be followed without knowing where it was read. A ref pointing outside /restapi/ is left as sent.
 */
export function absoluteTreeRefs(base: string, value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => absoluteTreeRefs(base, item));
  if (value === null || typeof value !== 'object') return value;
  const object = value as Record<string, unknown>;
  const ref = object.$ref;
  if (typeof ref === 'string') {
    const resolved = resolveTreeRef(base, ref);
    return resolved === null ? { ...object } : { ...object, $ref: `/restapi/${resolved}` };
  }
  return Object.fromEntries(Object.entries(object).map(([key, item]) => [key, absoluteTreeRefs(base, item)]));
}
