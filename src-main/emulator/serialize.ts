import { canRead } from './access';
import { forbidden, type Json } from './http-error';
import { type Ctx, isListed, type Node } from './tree';
import { uriFor } from './uri';

/**
 * The JSON representation of a node. Calls and write-only values are left out, and so are subtrees
 * the caller may not read. With a depth limit, containers below it become `{"$ref": "<uri>"}`; with the
 * real-unit `depthRefs: 'relative'`, every member at the limit (leaves too) becomes a `$ref` relative to
 * the resource read (`serial/`, `links/0/`), and each such ref is added to `refs`.
 */
export function represent(
  ctx: Ctx,
  node: Node,
  path: string[],
  depth: number | null,
  refs: string[] = [],
  base: readonly string[] = path,
): Json {
  if (node.kind === 'call') throw forbidden('A call has no representation.');
  const relative = ctx.controller.behaviours.depthRefs === 'relative';
  if (relative && depth !== null && depth <= 0 && path.length > base.length) {
    const ref = uriFor(path).slice(uriFor(base).length);
    refs.push(ref);
    return { $ref: ref };
  }
  if (node.kind === 'leaf') {
    if (!node.get) throw forbidden('This value can be written but never read.', 'write_only');
    return node.get();
  }
  if (depth !== null && depth <= 0) return { $ref: uriFor(path) };
  const below = depth === null ? null : depth - 1;
  const entries = node.entries(ctx).filter(([key, child]) => isListed(child) && canRead(ctx, [...path, key]));
  if (node.kind === 'array')
    return entries.map(([key, child]) => represent(ctx, child, [...path, key], below, refs, base));
  return Object.fromEntries(
    entries.map(([key, child]) => [key, represent(ctx, child, [...path, key], below, refs, base)]),
  );
}

/** Response header lines a real unit's depth-limited read carries: more than 100 (power_switch_pro). */
export const DEPTH_READ_HEADER_LINES = 120;

/**
 * Headers of a depth-limited read under `depthRefs: 'relative'`: one `Link: <ref>; rel=item` line per
 * `$ref` member, then numbered filler lines up to DEPTH_READ_HEADER_LINES. The count is what was seen
 * (power_switch_pro raised Python's 100-header limit for `config/`); which headers a unit sends is a guess.
 */
export function depthReadHeaders(refs: readonly string[]): Record<string, string[]> {
  const links = refs.map((ref) => `<${ref}>; rel=item`);
  const filler = Array.from(
    { length: Math.max(0, DEPTH_READ_HEADER_LINES - links.length) },
    (_, i) => `${i + 1}`,
  );
  return { Link: links, 'X-Dli-Depth-Filler': filler };
}
