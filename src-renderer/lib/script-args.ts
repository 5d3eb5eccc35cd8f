/**
 * Arguments for a controller's user function, built from typed fields. A person never types code: each
 * field is a number, a piece of text or true/false, and the call expression is only ever a preview.
 */

export type ArgKind = 'number' | 'text' | 'boolean';
export type ScriptArg = number | string | boolean;

/** One field of the start form; `value` is what the input holds ('true'/'false' for booleans). */
export interface ArgField {
  kind: ArgKind;
  value: string;
}

/** The contract allows this many arguments and this much text per argument. */
export const MAX_ARGS = 16;
export const MAX_TEXT = 256;

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** The typed value of one field, or the reason it cannot be used. */
export function parseArg(field: ArgField): { ok: true; value: ScriptArg } | { ok: false; reason: string } {
  if (field.kind === 'boolean') {
    if (field.value === 'true' || field.value === 'false') return { ok: true, value: field.value === 'true' };
    return { ok: false, reason: 'Choose true or false.' };
  }
  if (field.kind === 'number') {
    const text = field.value.trim();
    if (text === '') return { ok: false, reason: 'Enter a number.' };
    if (!NUMBER.test(text))
      return { ok: false, reason: `“${text}” is not a number (use digits, a point for decimals).` };
    const value = Number(text);
    if (!Number.isFinite(value)) return { ok: false, reason: 'That number is too large.' };
    return { ok: true, value };
  }
  if (field.value.length > MAX_TEXT)
    return { ok: false, reason: `Text may be at most ${MAX_TEXT} characters.` };
  return { ok: true, value: field.value };
}

/** All fields parsed, or one reason per field (null where the field is fine). */
export function parseArgs(
  fields: ArgField[],
): { ok: true; args: ScriptArg[] } | { ok: false; reasons: (string | null)[] } {
  const parsed = fields.map(parseArg);
  if (parsed.every((p) => p.ok))
    return { ok: true, args: parsed.map((p) => (p as { value: ScriptArg }).value) };
  return { ok: false, reasons: parsed.map((p) => (p.ok ? null : p.reason)) };
}

/** A Lua literal for a value, as the controller will see it. */
export function luaLiteral(value: ScriptArg): string {
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number') return String(value);
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (code < 0x20 || code === 0x7f) out += `\\${String(code).padStart(3, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/** `cycle_an_outlet(5, 10)`: the preview of what will run. Fields that do not parse show as `?`. */
export function callPreview(fn: string, fields: ArgField[]): string {
  const parts = fields.map((field) => {
    const parsed = parseArg(field);
    return parsed.ok ? luaLiteral(parsed.value) : '?';
  });
  return `${fn}(${parts.join(', ')})`;
}
