import { callerName } from './access';
import type { Body } from './body';
import type { Controller } from './controller';
import { badRequest } from './http-error';
import { type Call, type Container, map, object, readOnly, writable } from './tree';

interface StartItem {
  user_function: string;
  source?: string;
}

function parseStartItems(args: Body): StartItem[] {
  const shape = 'The body is a JSON array of {"user_function": name, "source": "name(arg,…)"} items.';
  if (
    args.kind !== 'value' ||
    !Array.isArray(args.value) ||
    args.value.length === 0 ||
    args.value.length > 16
  ) {
    throw badRequest(shape, 'bad_body');
  }
  return args.value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw badRequest(shape, 'bad_body');
    const { user_function: fn, source, ...rest } = item as Record<string, unknown>;
    if (typeof fn !== 'string' || fn.length === 0 || fn.length > 64) throw badRequest(shape, 'bad_body');
    if (source !== undefined && (typeof source !== 'string' || source.length > 1024))
      throw badRequest(shape, 'bad_body');
    if (Object.keys(rest).length > 0)
      throw badRequest(`Unknown start field: ${Object.keys(rest).join(', ')}.`, 'bad_body');
    return source === undefined ? { user_function: fn } : { user_function: fn, source };
  });
}

export function scriptNode(c: Controller): Container {
  const { scripts } = c;
  const start: Call = {
    kind: 'call',
    invoke: (args, ctx) => {
      const items = parseStartItems(args);
      // Check every item before starting any, so a bad one starts nothing.
      const starters = items.map((item) => scripts.prepare(item, callerName(ctx)));
      const ids = starters.map((startThread) => startThread());
      return { status: 200, body: ids.length === 1 ? (ids[0] ?? '') : ids };
    },
  };
  const stop: Call = {
    kind: 'call',
    invoke: (args) => {
      const value = args.kind === 'value' ? args.value : undefined;
      if (!Array.isArray(value) || value.length === 0 || value.some((id) => typeof id !== 'string')) {
        throw badRequest('The body is a JSON array of thread ids, or ["all"].', 'bad_body');
      }
      const ids = value as string[];
      return { status: 200, body: scripts.stop(ids.includes('all') ? 'all' : ids) };
    },
  };
  return object(() => ({
    source: writable(
      () => scripts.source,
      (value) => {
        if (typeof value !== 'string')
          throw badRequest('source is Lua program text (send it as text/x-lua).', 'bad_value');
        if (value.length > 64 * 1024) throw badRequest('source is limited to 64 KiB.', 'bad_value');
        const text = value;
        return () => (scripts.source = text);
      },
    ),
    user_functions: map(() => scripts.functionNames().map((name) => [name, object(() => ({}))])),
    threads: map(() =>
      scripts.threadList().map(({ id, label }) => [id, object(() => ({ label: readOnly(() => label) }))]),
    ),
    start,
    stop,
  }));
}
