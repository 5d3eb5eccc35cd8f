/** The one neutralising function for text from outside, and the words for what it removes. */
import { describe, expect, it } from 'vitest';
import { hasUnsafeCharacters, neutralise, unsafeCharacterIn } from '../../src-main/shared/text';

describe('neutralise', () => {
  it('removes C0 and C1 controls and every bidirectional control; tabs and line breaks become spaces', () => {
    expect(neutralise('a\u0000b\u001b[31mc\u007fd\u009be\u0085f', 100)).toBe('ab[31mcde f');
    expect(neutralise('x\u202ay\u202bz\u202c1\u202d2\u202e3\u20664\u20675\u20686\u20697', 100)).toBe(
      'xyz1234567',
    );
    expect(neutralise('l\u200er\u200fa\u061cb', 100)).toBe('lrab');
    expect(neutralise('one\ntwo\r\nthree\tfour\u2028five\u2029six', 100)).toBe(
      'one two  three four five six',
    );
  });

  it('leaves ordinary text alone, other scripts and emoji included', () => {
    for (const text of ['Bench A', 'Prüfstand 3 — Router', 'ראוטר', '路由器', 'rack 7 👩‍🔧'])
      expect(neutralise(text, 100)).toBe(text);
  });

  it('bounds the length in characters, never splitting one, and says it cut', () => {
    expect(neutralise('abcdef', 6)).toBe('abcdef');
    expect(neutralise('abcdefg', 6)).toBe('abcde…');
    expect(neutralise('😀😀😀😀', 3)).toBe('😀😀…');
    expect(neutralise('x'.repeat(100_000), 200)).toHaveLength(200);
  });

  it('names the first character it would remove', () => {
    expect(unsafeCharacterIn('ok')).toBeNull();
    expect(unsafeCharacterIn('a\nb')).toBe('a line break (U+000A)');
    expect(unsafeCharacterIn('a\u001b[2J')).toBe('an escape character (U+001B)');
    expect(unsafeCharacterIn('evil\u202Etxt.exe')).toBe('a text-direction control (U+202E)');
    expect(unsafeCharacterIn('nul\u0000')).toBe('a control character (U+0000)');
    expect(hasUnsafeCharacters('tab\there')).toBe(true);
  });
});
