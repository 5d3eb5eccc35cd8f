/**
 * The one CSV writer: RFC 4180 quoting, text cells guarded against spreadsheet formulas (OWASP's list),
 * numbers left numbers. The Core's exports written with it are tested in their rooms
 * (test/core/activity/activity-export.test.ts, test/core/meters/meter-history.test.ts).
 */
import { describe, expect, it } from 'vitest';
import { csvDocument, csvField, utcCell } from '../../src-main/shared/csv';

describe('the CSV writer', () => {
  it('guards every text cell a spreadsheet would run as a formula, and nothing else', () => {
    for (const formula of ['=1+1', '+1', '-2+3', '@SUM(A1)', '\tx', '\rx', '\nx', '\u0000x'])
      expect(csvField(formula).replace(/^"/, '').startsWith("'"), JSON.stringify(formula)).toBe(true);
    expect(csvField('Bench A')).toBe('Bench A');
    expect(csvField("it's")).toBe("it's");
    expect(csvField('a=b')).toBe('a=b');
  });

  it('quotes fields with commas, quotes and line breaks (RFC 4180), after guarding', () => {
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('two\r\nlines')).toBe('"two\r\nlines"');
  });

  it('writes numbers as numbers (-3.2 stays -3.2), and empty cells for nothing or no number', () => {
    expect(csvDocument(['a', 'b', 'c', 'd', 'e'], [[-3.2, 0, null, undefined, Number.NaN]])).toBe(
      'a,b,c,d,e\r\n-3.2,0,,,\r\n',
    );
  });

  it('writes an empty cell for a time no Date can hold, never NaN or an exception', () => {
    expect(utcCell(Date.UTC(2026, 10, 24, 8, 0, 0))).toBe('2026-11-24T08:00:00.000Z');
    expect(utcCell(null)).toBe('');
    expect(utcCell(9e15)).toBe('');
    expect(utcCell(Number.NaN)).toBe('');
  });
});
