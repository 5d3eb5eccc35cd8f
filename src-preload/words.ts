/**
 * Plugboard's words for outlets and controller statuses, shared by both sides like the contract: the
 * Core's activity log, errors, notifications and tray, the REST client's errors, and the window all name
 * things the same way. Also the rules for text from outside (which characters may never be shown, how
 * long a text may grow) and the one way to print a date: the contract's schemas need both, and it
 * imports only this file and the model. Imports nothing of Plugboard's but the model.
 */
import type { ActivityDoor, ControllerStatus } from './model';

/** "outlet 3 (Scope)", or "outlet 3" when the outlet has no name or its default one ("Outlet 3"). */
export function outletLabel(number: number, name: string | undefined): string {
  const clean = name?.trim();
  return !clean || clean.toLowerCase() === `outlet ${number}`
    ? `outlet ${number}`
    : `outlet ${number} (${clean})`;
}

/** The first letter upper-case: an outlet label that starts a sentence ("Outlet 3 (Scope) on …"). */
export function capitalise(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** A controller's status in a word or two: next to its dot, read by screen readers, in the tray. */
export const STATUS_TEXT: Record<ControllerStatus, string> = {
  connecting: 'connecting',
  online: 'online',
  offline: 'offline',
  auth_failed: 'auth problem',
  api_disabled: 'API disabled',
  tls_changed: 'certificate changed',
  rebooting: 'rebooting',
  error: 'error',
  password_needed: 'password needed',
};

const STATUS_PHRASE: Record<ControllerStatus, string> = {
  connecting: 'is connecting',
  online: 'is online',
  offline: 'is offline',
  auth_failed: 'does not accept the saved login',
  api_disabled: 'has its REST-style API switched off',
  tls_changed: 'presents a different certificate',
  rebooting: 'is rebooting',
  error: 'answers with errors',
  password_needed: 'needs its password again',
};

/** "Bench A is offline", "The controller does not accept the saved login": a status in a sentence. */
export function statusSentence(subject: string, status: ControllerStatus): string {
  return `${subject} ${STATUS_PHRASE[status]}`;
}

/** The doors of the activity log, as a sentence says them ("by alice, CLI"). */
export const DOOR_TEXT: Record<ActivityDoor, string> = {
  window: 'window',
  tray: 'tray',
  web: 'web window',
  cli: 'CLI',
  'pdudaemon-http': 'pdudaemon HTTP',
  'pdudaemon-tcp': 'pdudaemon TCP',
  'json-api': 'JSON API',
  mqtt: 'MQTT',
  group: 'group',
  sequence: 'sequence',
  script: 'script',
  outside: 'outside Plugboard',
  system: 'Plugboard',
};

/** Who did it and through which door: "alice, CLI"; "outside Plugboard"; "Plugboard". */
export function actorText(entry: { source: ActivityDoor; who: string | null }): string {
  if (entry.source === 'outside' || entry.source === 'system') return DOOR_TEXT[entry.source];
  return entry.who ? `${entry.who}, ${DOOR_TEXT[entry.source]}` : DOOR_TEXT[entry.source];
}

// ---------- untrusted text ----------

/**
 * Characters that may never reach a terminal, a log line, a pdudaemon answer or the window from text
 * someone else chose (a reason, a name, an outlet name the controller sends): C0 and C1 controls
 * (escape sequences, NUL, line breaks that forge log lines) and the bidirectional controls that make
 * text read differently from what it is (U+202A–U+202E, U+2066–U+2069, U+200E/U+200F, U+061C), with the
 * Unicode line and paragraph separators, which break lines like a line feed.
 */
function isUnsafeCode(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069) ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x061c ||
    code === 0x2028 ||
    code === 0x2029
  );
}

/** Controls that separate words (tab, line breaks): they become a space, so words do not run together. */
function isSpacingCode(code: number): boolean {
  return (code >= 0x09 && code <= 0x0d) || code === 0x85 || code === 0x2028 || code === 0x2029;
}

const hex = (code: number) => `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;

/**
 * The first character of `text` that may not be shown, in words ("a line break (U+000A)", "a
 * text-direction control (U+202E)"), or null when there is none.
 */
export function unsafeCharacterIn(text: string): string | null {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (!isUnsafeCode(code)) continue;
    if (code === 0x0a || code === 0x0d || code === 0x2028 || code === 0x2029)
      return `a line break (${hex(code)})`;
    if (code === 0x09) return `a tab (${hex(code)})`;
    if (code === 0x1b) return `an escape character (${hex(code)})`;
    if (code >= 0x200e) return `a text-direction control (${hex(code)})`;
    return `a control character (${hex(code)})`;
  }
  return null;
}

/**
 * Untrusted text made safe to show anywhere: the characters above removed (tabs and line breaks become
 * spaces), at most `max` characters (code points; a longer text ends with "…"). The one neutralising
 * function: main code reaches it as `neutralise` in src-main/shared/text.ts.
 */
export function neutraliseText(text: string, max: number): string {
  let out = text;
  if (unsafeCharacterIn(text) !== null) {
    out = '';
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      if (!isUnsafeCode(code)) out += text[i];
      else if (isSpacingCode(code)) out += ' ';
    }
  }
  if (out.length <= max) return out;
  const points = Array.from(out);
  return points.length <= max ? out : `${points.slice(0, Math.max(0, max - 1)).join('')}…`;
}

// ---------- dates ----------

/** Whether `ms` is a time a Date can hold (±8.64e15 ms): anything else would print NaN. */
export function isPrintableTime(ms: number): boolean {
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15;
}

/**
 * "2026-11-24 14:30" (with `seconds`, "2026-11-24 14:30:05") in the machine's time zone; "an unknown
 * time" for a value no Date can hold, never "NaN-NaN-NaN".
 */
export function localDateTime(ms: number, seconds = false): string {
  if (!isPrintableTime(ms)) return 'an unknown time';
  const d = new Date(ms);
  const two = (n: number) => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}-${two(d.getMonth() + 1)}-${two(d.getDate())}`;
  const time = `${two(d.getHours())}:${two(d.getMinutes())}${seconds ? `:${two(d.getSeconds())}` : ''}`;
  return `${date} ${time}`;
}

/**
 * An entry's action as shown: "refused", or for a refusal repeated and counted into one entry,
 * "refused (×20100, last 2026-11-24 10:42:07)".
 */
export function activityActionText(entry: { action: string; count?: number; lastTime?: number }): string {
  if (entry.count === undefined || entry.count < 2) return entry.action;
  const last = entry.lastTime === undefined ? '' : `, last ${localDateTime(entry.lastTime, true)}`;
  return `${entry.action} (×${entry.count}${last})`;
}
