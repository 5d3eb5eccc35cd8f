/**
 * Building the `source` of a script start (`cycle_an_outlet(5,10)`) from typed arguments. Arguments are
 * turned into Lua literals — numbers, escaped strings, booleans — so nothing a person types can become
 * code on the controller.
 */
import { PlugboardError } from '../shared/errors';
import type { ScriptArgument } from './types';

const LUA_KEYWORDS = new Set(
  'and break do else elseif end false for function goto if in local nil not or repeat return then true until while'.split(
    ' ',
  ),
);

/** Throws BAD_INPUT unless `name` can only be a Lua function name. */
export function checkFunctionName(name: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(name) || LUA_KEYWORDS.has(name)) {
    throw new PlugboardError(
      'BAD_INPUT',
      `"${name.slice(0, 64)}" is not a script function name: use letters, digits and underscores, not starting with a digit.`,
    );
  }
  return name;
}

/** A Lua string literal; every byte outside printable ASCII (and `"`, `\`) as a `\ddd` escape. */
function luaString(text: string): string {
  let out = '"';
  for (const byte of Buffer.from(text, 'utf8')) {
    const printable = byte >= 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x5c;
    out += printable ? String.fromCharCode(byte) : `\\${String(byte).padStart(3, '0')}`;
  }
  return `${out}"`;
}

export function luaLiteral(argument: ScriptArgument, position: number): string {
  if (typeof argument === 'boolean') return argument ? 'true' : 'false';
  if (typeof argument === 'number') {
    if (!Number.isFinite(argument)) {
      throw new PlugboardError('BAD_INPUT', `Script argument ${position} must be a finite number.`);
    }
    // Plain decimal notation; `-0` and exponents are spelled so Lua reads the same number back.
    return Object.is(argument, -0) ? '0' : String(argument);
  }
  if (typeof argument === 'string') {
    if (argument.length > 256) {
      throw new PlugboardError('BAD_INPUT', `Script argument ${position} is longer than 256 characters.`);
    }
    return luaString(argument);
  }
  throw new PlugboardError('BAD_INPUT', `Script argument ${position} must be a number, text or true/false.`);
}

/** `name(arg1,arg2)`; null when there are no arguments (then only `user_function` is sent). */
export function callExpression(functionName: string, args: readonly ScriptArgument[]): string | null {
  checkFunctionName(functionName);
  if (args.length > 16) throw new PlugboardError('BAD_INPUT', 'A script takes at most 16 arguments here.');
  if (args.length === 0) return null;
  return `${functionName}(${args.map((arg, i) => luaLiteral(arg, i + 1)).join(',')})`;
}
