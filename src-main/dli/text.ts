/** Small text checks shared by the client (kept out of regexes: control characters in them are hard to read). */

function isControl(code: number): boolean {
  return code < 0x20 || code === 0x7f;
}

export function hasControlCharacters(text: string): boolean {
  for (let i = 0; i < text.length; i++) if (isControl(text.charCodeAt(i))) return true;
  return false;
}

/** Control characters become spaces; used on text the controller sends before it is shown. */
export function withoutControlCharacters(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) out += isControl(text.charCodeAt(i)) ? ' ' : text[i];
  return out;
}
