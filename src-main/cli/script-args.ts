/** What people type for `script start --args`: comma-separated values, typed as numbers, true/false or text. */
import type { ScriptArgument } from '../dli/types';

/** Splits on commas outside quotes; a quote opens only at the start of an item, so `it's` stays text. */
function splitArgs(text: string): string[] {
  const items: string[] = [];
  let item = '';
  let quote: string | null = null;
  for (const char of text) {
    if (quote !== null) {
      if (char === quote) quote = null;
    } else if ((char === '"' || char === "'") && item.trim() === '') {
      quote = char;
    } else if (char === ',') {
      items.push(item);
      item = '';
      continue;
    }
    item += char;
  }
  items.push(item);
  return items;
}

/** `--args 5,10,"a, b",true` → typed values: numbers, true/false, else text (quotes optional). */
export function parseScriptArgs(text: string | undefined): ScriptArgument[] {
  if (text === undefined || text.trim() === '') return [];
  return splitArgs(text).map((raw) => {
    const part = raw.trim();
    if (/^-?(\d+(\.\d*)?|\.\d+)([eE][-+]?\d+)?$/.test(part)) return Number(part);
    if (part === 'true' || part === 'false') return part === 'true';
    const quoted = /^"(.*)"$|^'(.*)'$/.exec(part);
    return quoted ? (quoted[1] ?? quoted[2] ?? '') : part;
  });
}
