import { calls, parseInput, type CallName, type Handlers, type Result } from '../../../src-preload/contract';
import { internalError, isPlugboardError } from '../../shared/errors';
import { consoleLogger, type Logger } from '../../shared/logging';

export function isCallName(name: unknown): name is CallName {
  return typeof name === 'string' && Object.hasOwn(calls, name);
}

/**
 * The shell-independent heart of both bindings: validate the input against the contract's schema,
 * run the Core's handler, and turn whatever happens into `Result` data. Never throws.
 */
export async function dispatch(
  handlers: Handlers,
  name: unknown,
  input: unknown,
  log: Logger = consoleLogger(),
): Promise<Result<unknown>> {
  if (!isCallName(name)) {
    return {
      ok: false,
      error: { code: 'BAD_INPUT', message: `Unknown call ${JSON.stringify(String(name)).slice(0, 80)}.` },
    };
  }
  const parsed = parseInput(name, input);
  if (!parsed.ok) return { ok: false, error: { code: 'BAD_INPUT', message: parsed.message } };
  try {
    const handler = handlers[name] as (input: unknown) => Promise<unknown>;
    const value = await handler(parsed.value);
    return { ok: true, value: value === undefined ? null : value };
  } catch (error) {
    if (isPlugboardError(error)) return { ok: false, error: error.toContractError() };
    return { ok: false, error: internalError(`handle ${name}`, error, log).toContractError() };
  }
}
