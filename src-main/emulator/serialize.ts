import { canRead } from './access';
import { forbidden, type Json } from './http-error';
import { type Ctx, isListed, type Node } from './tree';
import { uriFor } from './uri';

/**
 * The JSON representation of a node. Calls and write-only values are left out, and so are subtrees
 * the caller may not read. With a depth limit, containers below it become `{"$ref": "<uri>"}`.
 */
export function represent(ctx: Ctx, node: Node, path: string[], depth: number | null): Json {
  if (node.kind === 'call') throw forbidden('A call has no representation.');
  if (node.kind === 'leaf') {
    if (!node.get) throw forbidden('This value can be written but never read.', 'write_only');
    return node.get();
  }
  if (depth !== null && depth <= 0) return { $ref: uriFor(path) };
  const below = depth === null ? null : depth - 1;
  const entries = node.entries(ctx).filter(([key, child]) => isListed(child) && canRead(ctx, [...path, key]));
  if (node.kind === 'array')
    return entries.map(([key, child]) => represent(ctx, child, [...path, key], below));
  return Object.fromEntries(
    entries.map(([key, child]) => [key, represent(ctx, child, [...path, key], below)]),
  );
}
