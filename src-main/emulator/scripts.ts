import { conflict } from './http-error';
import type { Relay } from './relay';

type Arg = number | string | boolean | null;

interface Param {
  name: string;
  /** outlet: a 1-based outlet number; seconds: a duration; count: a whole number ≥ 1. */
  kind: 'outlet' | 'seconds' | 'count';
  default?: number;
}

interface Env {
  relay: Relay;
  signal: AbortSignal;
  sleep(seconds: number): Promise<void>;
}

interface UserFunction {
  params: Param[];
  run(env: Env, args: number[]): Promise<void>;
}

/** Switches through the transient state; scripts cannot switch locked outlets either. */
function set(env: Env, index: number, on: boolean): void {
  if (!env.relay.outlet(index).locked) env.relay.setTransient(index, on);
}

/** The built-in user functions, standing in for the Lua the controller would hold. */
const FUNCTIONS: Record<string, UserFunction> = {
  flash_a_light: {
    params: [
      { name: 'outlet', kind: 'outlet', default: 1 },
      { name: 'times', kind: 'count', default: 3 },
      { name: 'seconds', kind: 'seconds', default: 1 },
    ],
    async run(env, [outlet = 0, times = 3, seconds = 1]) {
      const original = env.relay.outlet(outlet).transientState;
      for (let i = 0; i < times; i++) {
        set(env, outlet, !original);
        await env.sleep(seconds);
        set(env, outlet, original);
        await env.sleep(seconds);
      }
    },
  },
  cycle_an_outlet: {
    params: [
      { name: 'outlet', kind: 'outlet' },
      { name: 'seconds', kind: 'seconds', default: 5 },
    ],
    async run(env, [outlet = 0, seconds = 5]) {
      set(env, outlet, false);
      await env.sleep(seconds);
      set(env, outlet, true);
    },
  },
  // Long-running: toggles until stopped, like a heartbeat lamp.
  blink_an_outlet: {
    params: [
      { name: 'outlet', kind: 'outlet', default: 1 },
      { name: 'seconds', kind: 'seconds', default: 1 },
    ],
    async run(env, [outlet = 0, seconds = 1]) {
      for (;;) {
        set(env, outlet, !env.relay.outlet(outlet).transientState);
        await env.sleep(Math.max(seconds, 0.05));
      }
    },
  },
};

/** Splits `f(1, "a,b", true)` into literal arguments. */
function parseSource(source: string, expected: string): Arg[] {
  const match = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\((.*)\)\s*;?\s*$/s.exec(source);
  if (!match) throw conflict('bad_arguments', `source must be a call such as ${expected}(1,5).`);
  if (match[1] !== expected) throw conflict('bad_arguments', `source calls ${match[1]}, not ${expected}.`);
  const text = match[2] ?? '';
  if (text.trim() === '') return [];
  const parts = text.match(/("([^"\\]|\\.)*"|'([^'\\]|\\.)*'|[^,])+/g) ?? [];
  if (parts.join(',').length !== text.length) throw conflict('bad_arguments', 'An argument is empty.');
  return parts.map((part) => {
    const arg = part.trim();
    if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(arg)) return Number(arg);
    if (/^(".*"|'.*')$/s.test(arg)) return arg.slice(1, -1);
    if (arg === 'true' || arg === 'false') return arg === 'true';
    if (arg === 'nil') return null;
    throw conflict('bad_arguments', `The argument "${arg}" is not a number, string, boolean or nil.`);
  });
}

function checkArgs(name: string, fn: UserFunction, args: Arg[], outlets: number): number[] {
  if (args.length > fn.params.length) {
    throw conflict(
      'bad_arguments',
      `${name} takes at most ${fn.params.length} arguments (${fn.params.map((p) => p.name).join(', ')}).`,
    );
  }
  return fn.params.map((param, i) => {
    const value = args[i] ?? param.default;
    if (value === undefined || value === null)
      throw conflict('bad_arguments', `${name} needs the argument ${param.name}.`);
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw conflict('bad_arguments', `${param.name} of ${name} must be a number.`);
    }
    if (param.kind === 'outlet') {
      if (!Number.isInteger(value) || value < 1 || value > outlets) {
        throw conflict('bad_arguments', `${param.name} must be an outlet number from 1 to ${outlets}.`);
      }
      return value - 1;
    }
    if (param.kind === 'count' && (!Number.isInteger(value) || value < 1 || value > 1000)) {
      throw conflict('bad_arguments', `${param.name} must be a whole number from 1 to 1000.`);
    }
    if (param.kind === 'seconds' && (value < 0 || value > 86_400)) {
      throw conflict('bad_arguments', `${param.name} must be between 0 and 86400 seconds.`);
    }
    return value;
  });
}

interface Thread {
  label: string;
  abort: AbortController;
}

/** The script engine: `script/user_functions/`, `script/threads/`, start and stop. */
export class Scripts {
  private readonly threads = new Map<string, Thread>();
  private nextId = 1;
  source = '-- Built-in functions: flash_a_light, cycle_an_outlet, blink_an_outlet\n';

  constructor(private readonly relay: Relay) {}

  functionNames(): string[] {
    return Object.keys(FUNCTIONS);
  }

  /** Running threads, oldest first. */
  threadList(): { id: string; label: string }[] {
    return [...this.threads].map(([id, thread]) => ({ id, label: thread.label }));
  }

  threadIds(): string[] {
    return [...this.threads.keys()];
  }

  /** Checks a start item completely and returns the function that starts it (409 when invalid). */
  prepare(item: { user_function: string; source?: string | undefined }, user: string): () => string {
    const fn = FUNCTIONS[item.user_function];
    if (!fn || !Object.hasOwn(FUNCTIONS, item.user_function)) {
      throw conflict('unknown_function', `There is no user function named "${item.user_function}".`);
    }
    const args = checkArgs(
      item.user_function,
      fn,
      item.source === undefined ? [] : parseSource(item.source, item.user_function),
      this.relay.count,
    );
    const shown = args.map((value, i) => (fn.params[i]?.kind === 'outlet' ? value + 1 : value));
    const label = `${item.user_function} (${user} via rest api)${shown.length ? ` ${shown.join(' ')}` : ''}`;
    return () => this.run(fn, args, label);
  }

  private run(fn: UserFunction, args: number[], label: string): string {
    const id = String(this.nextId++);
    const abort = new AbortController();
    const thread = { label, abort };
    this.threads.set(id, thread);
    const sleep = (seconds: number): Promise<void> =>
      new Promise((resolve, reject) => {
        if (abort.signal.aborted) return reject(abort.signal.reason);
        const timer = setTimeout(() => {
          abort.signal.removeEventListener('abort', onAbort);
          resolve();
        }, seconds * 1000);
        const onAbort = (): void => {
          clearTimeout(timer);
          reject(abort.signal.reason);
        };
        abort.signal.addEventListener('abort', onAbort, { once: true });
      });
    fn.run({ relay: this.relay, signal: abort.signal, sleep }, args)
      .catch(() => undefined)
      .finally(() => {
        if (this.threads.get(id) === thread) this.threads.delete(id);
      });
    return id;
  }

  /** Stops the named threads (or all); returns the ids that were running. */
  stop(ids: string[] | 'all'): string[] {
    const targets = ids === 'all' ? this.threadIds() : ids.filter((id) => this.threads.has(id));
    for (const id of targets) {
      this.threads.get(id)?.abort.abort(new Error('stopped'));
      this.threads.delete(id);
    }
    return targets;
  }

  /** After a reboot the thread numbering starts again. */
  reset(): void {
    this.stop('all');
    this.nextId = 1;
  }
}
