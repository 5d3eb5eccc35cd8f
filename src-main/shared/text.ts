/**
 * Text from outside made safe to show: a reason, a name, an outlet or meter name the controller sends,
 * anything a client of the service wrote. Control characters (escape sequences, NUL, line breaks that
 * forge log lines) and bidirectional controls (text that reads differently from what it is) never reach
 * a terminal, a log line, a pdudaemon answer, a CSV cell or the window, and no text grows without bound.
 *
 * The rules themselves live beside the contract (src-preload/words.ts), whose schemas refuse the same
 * characters in what people type: this is where main code takes them from.
 */
import { neutraliseText, unsafeCharacterIn } from '../../src-preload/words';

/** Bounds for text from outside, in characters: generous for what real units and people send. */
export const TEXT_LIMITS = {
  /** A name a controller sends: its own, an outlet's, a meter's, a user's, a script's. */
  unitName: 128,
  /** Other short text from a controller: model, serial, firmware, host name, a thread's label. */
  unitText: 256,
  /** A controller's error text shown in a message. */
  unitMessage: 200,
  /** A reservation's reason (the contract also refuses longer ones). */
  reason: 200,
  /** Any text of an activity entry (its action holds a reason and names). */
  activity: 400,
} as const;

/** `text` with control and bidirectional characters removed (tabs and line breaks become spaces), at most `max` characters. */
export function neutralise(text: string, max: number): string {
  return neutraliseText(text, max);
}

/** Whether `text` holds a character `neutralise` would remove. */
export function hasUnsafeCharacters(text: string): boolean {
  return unsafeCharacterIn(text) !== null;
}

export { unsafeCharacterIn };
