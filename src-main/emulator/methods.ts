import { canInvoke, canModify, canRead } from './access';
import type { Body } from './body';
import { badRequest, forbidden, HttpError, type Json, methodNotAllowed, notFound } from './http-error';
import { depthReadHeaders, represent } from './serialize';
import { type Apply, childOf, type Container, type Ctx, isContainer, type Node } from './tree';
import { type Step, uriFor } from './uri';
import { type Selected, walk } from './walk';

export interface ApiRequest {
  /** After X-HTTP-Method tunnelling. */
  method: string;
  steps: Step[];
  body: Body;
  /** From `Range: dli-depth=N`; null when absent. */
  depth: number | null;
  /** `Prefer: return=representation`. */
  representation: boolean;
}

export interface ApiResponse {
  status: number;
  body?: Json;
  headers?: Record<string, string | string[]>;
  /** Runs once the answer is out (reboot). */
  after?: () => void;
}

function allowed(selected: Selected): string[] {
  const { node, parent } = selected;
  if (node.kind === 'call') return ['POST'];
  const methods = ['GET', 'HEAD'];
  if (node.kind === 'leaf')
    return node.set ? [...methods, 'PUT', 'PATCH'] : node.get ? methods : ['PUT', 'PATCH'];
  if (node.kind === 'object' || parent?.putChild) methods.push('PUT', 'PATCH');
  if (node.append) methods.push('POST');
  if (parent?.removeChild) methods.push('DELETE');
  return methods;
}

function refuse(selected: Selected, method: string): HttpError {
  const allow = allowed(selected);
  return methodNotAllowed(
    allow,
    `${method} is not possible on ${uriFor(selected.path)}; it accepts ${allow.join(', ')}.`,
  );
}

function denied(selected: Selected): HttpError {
  return forbidden(`You may not change ${uriFor(selected.path)}.`);
}

function readOne(ctx: Ctx, selected: Selected, depth: number | null, refs: string[] = []): Json {
  if (!canRead(ctx, selected.path)) throw forbidden(`You may not read ${uriFor(selected.path)}.`);
  if (selected.node.kind === 'call') throw refuse(selected, 'GET');
  return represent(ctx, selected.node, selected.path, depth, refs);
}

/** A single read: 200, or 206 with a depth limit (and a real unit's many headers). */
function readSingle(ctx: Ctx, selected: Selected, depth: number | null): ApiResponse {
  const refs: string[] = [];
  const body = readOne(ctx, selected, depth, refs);
  if (depth === null) return { status: 200, body };
  const relative = ctx.controller.behaviours.depthRefs === 'relative';
  return { status: 206, body, ...(relative && { headers: depthReadHeaders(refs) }) };
}

/** Turns a PUT/PATCH body into a value. */
function valueOf(body: Body): unknown {
  if (body.kind === 'value') return body.value;
  if (body.kind === 'fields') return body.fields;
  if (body.kind === 'none')
    throw badRequest('This write needs a value: send value=… as a form, JSON or text.', 'bad_body');
  throw new HttpError(415, 'unsupported_media_type', 'JSON patch bodies are only for PATCH.');
}

/** JSON-patch `replace`/`add`/`test` of direct fields, or an object of fields. */
function fieldsOf(ctx: Ctx, selected: Selected, body: Body): Record<string, unknown> {
  if (body.kind === 'fields') return body.fields;
  if (
    body.kind === 'value' &&
    typeof body.value === 'object' &&
    body.value !== null &&
    !Array.isArray(body.value)
  ) {
    return body.value as Record<string, unknown>;
  }
  if (body.kind !== 'patch')
    throw badRequest(
      'PATCH of an object takes several fields: a form, a JSON object or a JSON patch.',
      'bad_body',
    );
  if (!Array.isArray(body.ops)) throw badRequest('A JSON patch is an array of operations.', 'bad_body');
  const fields: Record<string, unknown> = {};
  for (const op of body.ops as unknown[]) {
    const { op: kind, path, value } = (op ?? {}) as { op?: unknown; path?: unknown; value?: unknown };
    if (typeof path !== 'string' || !/^\/[^/]+$/.test(path)) {
      throw badRequest('JSON patch paths name one field of this object, e.g. "/name".', 'bad_body');
    }
    const field = path.slice(1).replace(/~1/g, '/').replace(/~0/g, '~');
    if (kind === 'replace' || kind === 'add') fields[field] = value;
    else if (kind === 'test') {
      const child = isContainer(selected.node) ? childOf(selected.node, field, ctx) : undefined;
      const current = child?.kind === 'leaf' && child.get ? child.get() : undefined;
      if (JSON.stringify(current) !== JSON.stringify(value)) {
        throw new HttpError(409, 'test_failed', `The JSON patch test of ${path} failed.`);
      }
    } else
      throw badRequest(`The JSON patch operation ${JSON.stringify(kind)} is not supported here.`, 'bad_body');
  }
  return fields;
}

/** PUT of one element (validated and applied, or thrown). */
function putOne(ctx: Ctx, selected: Selected, value: unknown): void {
  const { node, parent, path } = selected;
  if (node.kind === 'leaf') {
    if (!node.set) throw refuse(selected, 'PUT');
    if (!canModify(ctx, path, node.userMay)) throw denied(selected);
    node.set(value, ctx)();
    return;
  }
  if (node.kind === 'call') throw refuse(selected, 'PUT');
  if (parent?.putChild) {
    if (!canModify(ctx, path)) throw denied(selected);
    parent.putChild(path.at(-1) ?? '', value, ctx)();
    return;
  }
  if (node.kind !== 'object' || typeof value !== 'object' || value === null || Array.isArray(value))
    throw refuse(selected, 'PUT');
  patchObject(ctx, selected, node, value as Record<string, unknown>);
}

function patchObject(ctx: Ctx, selected: Selected, node: Container, fields: Record<string, unknown>): void {
  if (node.patch) {
    if (!canModify(ctx, selected.path)) throw denied(selected);
    node.patch(fields, ctx)();
    return;
  }
  const changes: Apply[] = Object.entries(fields).map(([field, value]) => {
    const child: Node | undefined = childOf(node, field, ctx);
    if (!child || child.kind !== 'leaf')
      throw badRequest(`${uriFor(selected.path)} has no field "${field}".`, 'bad_body');
    const path = [...selected.path, field];
    if (!child.set) throw methodNotAllowed(['GET'], `${uriFor(path)} is read-only.`);
    if (!canModify(ctx, path, child.userMay)) throw forbidden(`You may not change ${uriFor(path)}.`);
    return child.set(value, ctx);
  });
  for (const change of changes) change();
}

function patchOne(ctx: Ctx, selected: Selected, body: Body): void {
  const { node } = selected;
  if (node.kind === 'leaf' || node.kind === 'call') return putOne(ctx, selected, valueOf(body));
  if (node.kind !== 'object') throw refuse(selected, 'PATCH');
  patchObject(ctx, selected, node, fieldsOf(ctx, selected, body));
}

function postOne(ctx: Ctx, selected: Selected, body: Body): ApiResponse {
  const { node, path } = selected;
  if (node.kind === 'call') {
    if (!node.checksAccess && !canInvoke(ctx, path, node.userMay)) throw denied(selected);
    const result = node.invoke(body, ctx);
    return result.status === 204 ? { status: 204, ...(node.after && { after: node.after }) } : result;
  }
  if (isContainer(node) && node.append) {
    if (!canModify(ctx, path)) throw denied(selected);
    const { key, apply } = node.append(
      body.kind === 'value' ? body.value : body.kind === 'fields' ? body.fields : undefined,
      ctx,
    );
    apply();
    return { status: 201, headers: { Location: uriFor([...path, key]) } };
  }
  throw refuse(selected, 'POST');
}

function deleteOne(ctx: Ctx, selected: Selected): void {
  const { parent, path } = selected;
  if (!parent?.removeChild) throw refuse(selected, 'DELETE');
  if (!canModify(ctx, path)) throw denied(selected);
  parent.removeChild(path.at(-1) ?? '', ctx)();
}

/** Each element on its own: null where it worked, the short error where it did not. */
function perElement(ctx: Ctx, selection: Selected[], run: (selected: Selected) => Json): Json[] {
  const withStatus = ctx.controller.behaviours.matrixErrors === 'with-status';
  return selection.map((selected) => {
    try {
      return run(selected);
    } catch (error) {
      if (error instanceof HttpError) return error.element(withStatus);
      throw error;
    }
  });
}

/** One REST request against the controller's tree: walk to the resource, then run the method on it. */
export function answerApiRequest(ctx: Ctx, root: Container, request: ApiRequest): ApiResponse {
  const { method, body, depth } = request;
  const found = walk(root, request.steps, ctx);
  if (found.missing) {
    const { parent, key } = found.missing;
    const container = parent.node as Container;
    if (method !== 'PUT' || !container.putChild)
      throw notFound(`${uriFor([...parent.path, key])} does not exist.`);
    const path = [...parent.path, key];
    if (!canModify(ctx, path)) throw forbidden(`You may not create ${uriFor(path)}.`);
    container.putChild(key, valueOf(body), ctx)();
    return { status: 204 };
  }
  const { selection, matrix } = found;
  const links = selection.map((selected) => `<${uriFor(selected.path)}>; rel=item`);
  const multi = (items: Json[]): ApiResponse => ({ status: 207, body: items, headers: { Link: links } });
  const single = selection[0];
  if (!single) return multi([]);
  const written = (): ApiResponse =>
    request.representation ? { status: 200, body: readOne(ctx, single, null) } : { status: 204 };

  switch (method) {
    case 'GET':
    case 'HEAD':
      if (matrix) return multi(perElement(ctx, selection, (selected) => readOne(ctx, selected, depth)));
      return readSingle(ctx, single, depth);
    case 'PUT': {
      const value = valueOf(body);
      if (matrix)
        return multi(perElement(ctx, selection, (selected) => (putOne(ctx, selected, value), null)));
      putOne(ctx, single, value);
      return written();
    }
    case 'PATCH':
      if (matrix)
        return multi(perElement(ctx, selection, (selected) => (patchOne(ctx, selected, body), null)));
      patchOne(ctx, single, body);
      return written();
    case 'POST': {
      if (!matrix) return postOne(ctx, single, body);
      return multi(
        perElement(ctx, selection, (selected) => {
          const result = postOne(ctx, selected, body);
          return 'body' in result && result.body !== undefined ? result.body : null;
        }),
      );
    }
    case 'DELETE': {
      if (!matrix) {
        deleteOne(ctx, single);
        return { status: 204 };
      }
      // Array elements re-index as they go, so delete from the highest index down.
      const order = selection
        .map((_, i) => i)
        .sort((a, b) => Number(selection[b]?.path.at(-1)) - Number(selection[a]?.path.at(-1)));
      const results: Json[] = new Array<Json>(selection.length).fill(null);
      for (const i of order) {
        const selected = selection[i];
        if (!selected) continue;
        [results[i] = null] = perElement(ctx, [selected], (element) => (deleteOne(ctx, element), null));
      }
      return multi(results);
    }
    default:
      throw methodNotAllowed(
        ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'],
        `${method} is not a method this controller knows.`,
      );
  }
}
