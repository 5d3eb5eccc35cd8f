/**
 * Structural equality of plain JSON values (objects, arrays, strings, numbers, booleans, null), for
 * deciding whether a controller's state really changed before pushing it. Cheaper than serialising
 * both sides, and stops at the first difference.
 */
export function sameJson(a: unknown, b: unknown, ignoreTopLevel?: ReadonlySet<string>): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) {
    // NaN never appears in contract data, but two NaNs are the same reading.
    return typeof a === 'number' && typeof b === 'number' && Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) {
    const other = b as unknown[];
    if (a.length !== other.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameJson(a[i], other[i])) return false;
    return true;
  }
  const left = a as Record<string, unknown>;
  const right = b as Record<string, unknown>;
  const leftKeys = Object.keys(left).filter((key) => !ignoreTopLevel?.has(key));
  const rightKeys = Object.keys(right).filter((key) => !ignoreTopLevel?.has(key));
  if (leftKeys.length !== rightKeys.length) return false;
  for (const key of leftKeys) {
    if (!Object.hasOwn(right, key) || !sameJson(left[key], right[key])) return false;
  }
  return true;
}
