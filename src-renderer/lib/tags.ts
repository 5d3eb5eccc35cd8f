/**
 * Tags typed in one box: "rack 7, bench, ci". Split on commas, trimmed, empty ones dropped and
 * duplicates (any case) removed, with the problem in words when the Core would refuse them.
 */

/** MAX_CONTROLLER_TAGS of src-preload/contract.ts (not imported: that would bundle its validators). */
const MAX_CONTROLLER_TAGS = 16;

export function parseTags(text: string): { tags: string[]; problem: string | null } {
  const seen = new Set<string>();
  const tags: string[] = [];
  for (const raw of text.split(',')) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    tags.push(tag);
  }
  const long = tags.find((t) => t.length > 40);
  const problem = tags.some((t) => t.includes(';'))
    ? 'Tags may not contain semicolons: separate them with commas.'
    : long
      ? `The tag “${long.slice(0, 20)}…” is longer than 40 characters.`
      : tags.length > MAX_CONTROLLER_TAGS
        ? `At most ${MAX_CONTROLLER_TAGS} tags: remove ${tags.length - MAX_CONTROLLER_TAGS}.`
        : null;
  return { tags, problem };
}

/** The same tags in the same order. */
export function sameTags(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((tag, i) => tag === b[i]);
}
