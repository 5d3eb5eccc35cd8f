/**
 * A controller's scripts: starting a user function with typed arguments, never code, and stopping threads.
 */
import * as v from 'valibot';
import { call, controllerId } from './blocks';

/** Lua identifier: the only thing that may name a user function. */
const functionName = v.pipe(v.string(), v.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'is not a function name'));

const scriptArg = v.union(
  [
    v.pipe(v.number(), v.finite('must be a finite number')),
    v.pipe(v.string(), v.maxLength(256)),
    v.boolean(),
  ],
  'must be a number, text or true/false',
);

export const scriptCalls = {
  /** Start a user function; arguments are typed values, never code. Returns the thread id. */
  'scripts/start': call(
    v.strictObject({
      controllerId,
      function: functionName,
      args: v.pipe(v.array(scriptArg), v.maxLength(16)),
    }),
  ).returns<{ threadId: string }>(),
  /** Stop the given script threads, or `'all'` of them; recorded in the activity log. */
  'scripts/stop': call(
    v.strictObject({
      controllerId,
      threads: v.union([
        v.literal('all'),
        v.pipe(v.array(v.pipe(v.string(), v.minLength(1), v.maxLength(32))), v.minLength(1)),
      ]),
    }),
  ).returns<null>(),
} as const;
