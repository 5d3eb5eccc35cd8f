import { describe, expect, it } from 'vitest';
import { excerpt, limitedLog, MAX_EXCERPT, MAX_LINE } from '../../src-main/web/log-limit';
import { FakeClock } from '../core/fake-clock';

describe('limitedLog', () => {
  it('lets a few lines through per window, then sums up the rest in one line when the window ends', async () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const log = limitedLog((message) => lines.push(message), { perWindow: 3, windowMs: 60_000, clock });
    for (let i = 0; i < 1000; i++) log(`refused ${i}`);
    expect(lines).toEqual(['refused 0', 'refused 1', 'refused 2']);
    await clock.advance(60_000);
    expect(lines).toHaveLength(4);
    expect(lines[3]).toMatch(/997 more refused or closed connections in the last 60 s/);
    // A new window starts with its own allowance.
    log('refused again');
    expect(lines[4]).toBe('refused again');
    await clock.advance(60_000);
    expect(lines).toHaveLength(5);
    expect(clock.pendingTimers).toBe(0);
    log.close();
  });

  it('cuts long lines and writes the pending summary on close', () => {
    const clock = new FakeClock();
    const lines: string[] = [];
    const log = limitedLog((message) => lines.push(message), { perWindow: 1, clock });
    log('x'.repeat(10_000));
    log('dropped');
    expect(lines[0]!.length).toBe(MAX_LINE);
    log.close();
    expect(lines[1]).toMatch(/1 more/);
    expect(clock.pendingTimers).toBe(0);
  });
});

describe('what a stranger sends, in a log line', () => {
  it('never starts a line of its own nor reaches the terminal as an escape or a bidi control', () => {
    const lines: string[] = [];
    const log = limitedLog((message) => lines.push(message), { clock: new FakeClock() });
    log('refused "x\n[plugboard serve] Stopped.\r\u001b[2J\u202eevil\u0085"');
    log.close();
    expect(lines).toEqual([
      'refused "x\\u000a[plugboard serve] Stopped.\\u000d\\u001b[2J\\u202eevil\\u0085"',
    ]);
    expect(excerpt('\u001b]0;owned\u0007 \u2066x')).toBe('"\\u001b]0;owned\\u0007 \\u2066x"');
  });
});

describe('excerpt', () => {
  it('quotes, escapes and cuts what a client sent, saying how long it was', () => {
    expect(excerpt('evil\r\n.example')).toBe('"evil\\r\\n.example"');
    const long = excerpt('a'.repeat(5000));
    expect(long.length).toBeLessThan(MAX_EXCERPT + 40);
    expect(long).toContain('(5000 characters)');
  });
});
