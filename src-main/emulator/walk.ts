import { canRead } from './access';
import { badRequest, type Json, notFound } from './http-error';
import { childOf, type Container, type Ctx, isContainer, isListed, type Node } from './tree';
import { type Step, uriFor } from './uri';

/** One selected resource with its concrete key path (and the collection it sits in). */
export interface Selected {
  node: Node;
  path: string[];
  parent: Container | null;
}

export interface Walk {
  selection: Selected[];
  /** A matrix segment was used: the answer is 207 with one entry per selected element. */
  matrix: boolean;
  /** A plain path whose last key does not exist yet (PUT may create it). */
  missing: { parent: Selected; key: string } | null;
}

function matches(element: Node, field: string, wanted: string, ctx: Ctx): boolean {
  if (!isContainer(element)) return false;
  const child = childOf(element, field, ctx);
  if (!child || child.kind !== 'leaf' || !child.get) return false;
  const value: Json = child.get();
  return typeof value === 'string' ? value === wanted : JSON.stringify(value) === wanted;
}

export function walk(root: Container, steps: Step[], ctx: Ctx): Walk {
  let selection: Selected[] = [{ node: root, path: [], parent: null }];
  let matrix = false;
  for (const [i, step] of steps.entries()) {
    const last = i === steps.length - 1;
    const next: Selected[] = [];
    for (const current of selection) {
      const { node } = current;
      if (!isContainer(node)) throw notFound(`${uriFor(current.path)} is a value; it has nothing below it.`);
      const add = (key: string, child: Node): void => {
        next.push({ node: child, path: [...current.path, key], parent: node });
      };
      switch (step.kind) {
        case 'key': {
          const child = childOf(node, step.key, ctx);
          if (child) add(step.key, child);
          else if (last && !matrix && selection.length === 1)
            return { selection: [], matrix, missing: { parent: current, key: step.key } };
          else throw notFound(`${uriFor([...current.path, step.key])} does not exist.`);
          break;
        }
        case 'all':
          for (const [key, child] of node.entries(ctx)) if (isListed(child)) add(key, child);
          break;
        case 'keys':
          for (const key of step.keys) {
            const child = childOf(node, key, ctx);
            if (!child) throw notFound(`${uriFor([...current.path, key])} does not exist.`);
            add(key, child);
          }
          break;
        case 'filter':
          if (!canRead(ctx, [...current.path, '*'])) break;
          for (const [key, child] of node.entries(ctx))
            if (matches(child, step.field, step.value, ctx)) add(key, child);
          break;
      }
    }
    if (step.kind !== 'key') matrix = true;
    if (next.length > 10_000) throw badRequest('That selection is too large.', 'bad_uri');
    selection = next;
  }
  return { selection, matrix, missing: null };
}
