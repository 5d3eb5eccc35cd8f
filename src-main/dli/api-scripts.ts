/** Scripts (admin only): user functions, running threads, start with typed arguments, stop. */
import type { Connection, Scope } from './connection';
import { PlugboardError } from '../shared/errors';
import { errorForStatus, parseAnswer, type RequestContext } from './http-errors';
import { threadIdSchema, threadsSchema, userFunctionsSchema } from './schemas';
import { callExpression } from './script-source';
import { getJson } from './shared-reads';
import type { CallOptions, ScriptArgument, ScriptsState, ScriptThread } from './types';

export class ScriptsApi {
  readonly #connection: Connection;

  constructor(connection: Connection) {
    this.#connection = connection;
  }

  /** User functions and running threads (two requests). */
  list(options?: CallOptions): Promise<ScriptsState> {
    const c = this.#connection;
    return c.run(options, async (scope) => {
      const functions = await getJson(
        scope,
        'script/user_functions/',
        userFunctionsSchema,
        this.#context('list the script functions'),
      );
      return { functions: functions.sort(), threads: await this.#readThreads(scope) };
    });
  }

  /** Only the running threads (one request): cheap enough to follow running scripts on every poll. */
  threads(options?: CallOptions): Promise<ScriptThread[]> {
    return this.#connection.run(options, (scope) => this.#readThreads(scope));
  }

  async #readThreads(scope: Scope): Promise<ScriptThread[]> {
    const threads = await getJson(
      scope,
      'script/threads/',
      threadsSchema,
      this.#context('list the running scripts'),
    );
    return Object.entries(threads)
      .map(([id, entry]) => ({ id, label: typeof entry === 'string' ? entry : (entry?.label ?? '') }))
      .sort((a, b) => a.id.localeCompare(b.id, 'en', { numeric: true }));
  }

  /**
   * Start a user function. Arguments are typed values turned into Lua literals (never code), e.g.
   * `start('cycle_an_outlet', [5, 10])` sends `cycle_an_outlet(5,10)`. Returns the new thread's id.
   */
  start(
    functionName: string,
    args: readonly ScriptArgument[] = [],
    options?: CallOptions,
  ): Promise<{ threadId: string }> {
    const c = this.#connection;
    let item: { user_function: string; source?: string };
    try {
      const source = callExpression(functionName, args);
      item = source ? { user_function: functionName, source } : { user_function: functionName };
    } catch (error) {
      return Promise.reject(error);
    }
    return c.run(options, async (scope) => {
      const context = this.#context(`start the script ${item.source ?? functionName}`, {
        conflict: `${c.controller} could not start ${item.source ?? functionName}: there is no such function, or the arguments do not fit it`,
      });
      const response = await scope.request({
        method: 'POST',
        path: 'script/start/',
        json: [item],
        guard: 'csrf',
      });
      if (response.status !== 200 && response.status !== 201) throw errorForStatus(response, context);
      return { threadId: parseAnswer(response, threadIdSchema, context) };
    });
  }

  /** Stop running threads by id, or all of them. */
  stop(threads: 'all' | readonly string[], options?: CallOptions): Promise<void> {
    const c = this.#connection;
    const ids = threads === 'all' ? ['all'] : [...threads];
    const bad = ids.find((id) => !/^[A-Za-z0-9_.-]{1,32}$/.test(id));
    if (ids.length === 0 || bad !== undefined) {
      return Promise.reject(
        new PlugboardError(
          'BAD_INPUT',
          bad !== undefined
            ? `"${bad.slice(0, 32)}" is not a thread id.`
            : 'Name at least one thread to stop.',
        ),
      );
    }
    return c.run(options, async (scope) => {
      const what = threads === 'all' ? 'stop all scripts' : `stop script thread ${ids.join(', ')}`;
      const response = await scope.request({
        method: 'POST',
        path: 'script/stop/',
        json: ids,
        guard: 'csrf',
      });
      if (response.status !== 200 && response.status !== 204) {
        throw errorForStatus(
          response,
          this.#context(what, { conflict: `${c.controller} could not ${what}` }),
        );
      }
    });
  }

  #context(action: string, extra: Partial<RequestContext> = {}): RequestContext {
    const c = this.#connection;
    return c.context(action, {
      forbidden: `Only administrators can use scripts on ${c.controller}, and ${c.notAdmin}`,
      forbiddenAction: 'Log in as an administrator.',
      ...extra,
    });
  }
}
