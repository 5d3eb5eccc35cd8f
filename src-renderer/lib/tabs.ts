/** The tab a key moves to in the WAI-ARIA tabs pattern (arrows wrap, Home/End jump), or null. */
export function nextTab(key: string, ids: readonly string[], current: string): string | null {
  const n = ids.length;
  if (n === 0) return null;
  const i = Math.max(0, ids.indexOf(current));
  switch (key) {
    case 'ArrowRight':
      return ids[(i + 1) % n]!;
    case 'ArrowLeft':
      return ids[(i - 1 + n) % n]!;
    case 'Home':
      return ids[0]!;
    case 'End':
      return ids[n - 1]!;
    default:
      return null;
  }
}

/** `ids` with `moved` placed at `to` (clamped): the new tab order after a drag or a keyboard move. */
export function moveId(ids: readonly string[], moved: string, to: number): string[] {
  const rest = ids.filter((id) => id !== moved);
  if (rest.length === ids.length) return [...ids];
  const at = Math.max(0, Math.min(rest.length, to));
  return [...rest.slice(0, at), moved, ...rest.slice(at)];
}
