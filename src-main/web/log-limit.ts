import { systemClock, type Clock, type TimerHandle } from '../core/index';
import type { Logger } from '../shared/logging';

/** The longest line a refusal or a closed socket may write; what a client sent is cut well before this. */
export const MAX_LINE = 300;
/** The longest excerpt of a client-chosen value (a Host header, a path) that goes into a line. */
export const MAX_EXCERPT = 80;

export interface LimitedLogOptions {
  /** Lines let through per window; the rest are counted and summed up in one line when it ends. */
  perWindow?: number;
  windowMs?: number;
  clock?: Clock;
}

export interface LimitedLog {
  (message: string): void;
  /** Write the pending summary now and stop the window's timer (the shell is closing). */
  close(): void;
}

/**
 * A log for what strangers can trigger (refused connections and requests, broken WebSocket frames):
 * each line is one line (control and bidi characters escaped, see `escapeControls`), cut to MAX_LINE
 * characters, and at most `perWindow` lines are written per window. A flood is summed up in one line
 * when its window ends ("… 4,512 more not logged"), so it can neither fill the log nor hide that it
 * happened.
 */
export function limitedLog(log: Logger, options: LimitedLogOptions = {}): LimitedLog {
  const perWindow = options.perWindow ?? 20;
  const windowMs = options.windowMs ?? 60_000;
  const clock = options.clock ?? systemClock;
  let written = 0;
  let dropped = 0;
  let timer: TimerHandle | null = null;

  const endWindow = () => {
    timer = null;
    if (dropped > 0) {
      log(
        `… and ${dropped.toLocaleString('en')} more refused or closed connections in the last ${windowMs / 1000} s, not logged one by one.`,
      );
    }
    written = 0;
    dropped = 0;
  };

  const limited = ((message: string) => {
    if (timer === null) {
      timer = clock.setTimeout(endWindow, windowMs);
      timer.unref?.();
    }
    if (written >= perWindow) {
      dropped++;
      return;
    }
    written++;
    const line = escapeControls(message.slice(0, MAX_LINE + 1));
    log(line.length > MAX_LINE ? `${line.slice(0, MAX_LINE - 1)}…` : line);
  }) as LimitedLog;
  limited.close = () => {
    if (timer !== null) clock.clearTimeout(timer);
    endWindow();
  };
  return limited;
}

/**
 * C0 and C1 controls (newline, ESC: a forged log line, terminal escapes), the line and paragraph
 * separators, and the bidi controls that reorder what a terminal shows.
 */
function isControl(code: number): boolean {
  return (
    code < 0x20 ||
    (code >= 0x7f && code <= 0x9f) ||
    code === 0x061c ||
    code === 0x200e ||
    code === 0x200f ||
    code === 0x2028 ||
    code === 0x2029 ||
    (code >= 0x202a && code <= 0x202e) ||
    (code >= 0x2066 && code <= 0x2069)
  );
}

/** Text made safe for one log line: every control or bidi character written as `\uXXXX`. */
export function escapeControls(text: string): string {
  let safe = '';
  for (const char of text) {
    const code = char.codePointAt(0)!;
    safe += isControl(code) ? `\\u${code.toString(16).padStart(4, '0')}` : char;
  }
  return safe;
}

/** A client-chosen value as it may appear in a log line: quoted, escaped, and cut to MAX_EXCERPT. */
export function excerpt(value: string): string {
  const cut = value.length > MAX_EXCERPT ? `${value.slice(0, MAX_EXCERPT)}…` : value;
  const quoted = escapeControls(JSON.stringify(cut));
  return `${quoted}${value.length > MAX_EXCERPT ? ` (${value.length} characters)` : ''}`;
}
