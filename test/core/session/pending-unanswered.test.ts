/**
 * Pending changes whose request is still on its way, or whose answer never came: never late while in
 * flight, the expected lag counted from the answer, and settled only by what a later poll shows.
 */
import { describe, expect, it } from 'vitest';
import { markAnswered, resolvePending, type PendingOutlet } from '../../../src-main/core/session/pending';
import { expirePending, settlePending } from '../../../src-main/core/session/session-outlets';
import type { ControllerSummary } from '../../../src-preload/model';
import { outlet } from '../outlet-fixture';

/** Sent at 1000 with 12 s for its lag and slack; no answer yet. */
const sent = (patch: Partial<PendingOutlet> = {}): PendingOutlet => ({
  kind: 'state',
  target: true,
  since: 1000,
  answeredAt: null,
  deadline: 13_000,
  cycleEndsAt: null,
  sawOff: false,
  actor: { door: 'window', who: 'alice' },
  action: 'on',
  ...patch,
});

const summary = { id: 'c1', name: 'Bench A' } as ControllerSummary;
const on = outlet({ state: true, transientState: true, physicalState: true });

describe('a request still on its way', () => {
  it('is never late, however long it waits in the queue and on the wire', () => {
    expect(resolvePending(sent(), outlet(), 900, 60_000)).toEqual({ kind: 'waiting' });
    const pending = new Map([[3, sent()]]);
    expect(expirePending(pending, 60_000, [outlet()], true, summary)).toEqual([]);
    expect(pending.size).toBe(1);
  });

  it('counts the expected lag from the answer, not from when it was sent', () => {
    const pending = sent();
    markAnswered(pending, 9000);
    expect(pending.deadline).toBe(21_000);
    const lagging = outlet({ state: true, transientState: true });
    expect(resolvePending(pending, lagging, 9500, 20_000)).toEqual({ kind: 'waiting' });
    expect(resolvePending(pending, lagging, 9500, 21_001)).toMatchObject({ kind: 'failed' });
  });
});

describe('a request whose answer never came', () => {
  it('is confirmed by a poll that began afterwards, and that outcome is recorded then, once', () => {
    const pending = sent();
    markAnswered(pending, 11_000, true);
    expect(resolvePending(pending, on, 10_500, 11_200)).toEqual({ kind: 'waiting' });
    const map = new Map([[3, pending]]);
    const entries = settlePending(map, [on], 11_100, 11_200, summary);
    expect(entries).toEqual([
      expect.objectContaining({
        outlet: 3,
        action: 'on',
        result: 'ok',
        error: null,
        actor: { door: 'window', who: 'alice' },
      }),
    ]);
    expect(map.size).toBe(0);
  });

  it('failed when the poll shows the asked-for state was never set', () => {
    const pending = sent();
    markAnswered(pending, 11_000, true);
    const entries = settlePending(new Map([[3, pending]]), [outlet()], 11_100, 11_200, summary);
    expect(entries).toEqual([
      expect.objectContaining({
        action: 'on (not confirmed)',
        result: 'error',
        error: expect.objectContaining({ message: expect.stringMatching(/did not answer.*did not happen/) }),
      }),
    ]);
  });

  it('a cycle is confirmed only once a poll saw the relay off', () => {
    const pending = sent({ kind: 'cycle', cycleEndsAt: 5000 });
    markAnswered(pending, 11_000, true);
    expect(pending.cycleEndsAt).toBeNull();
    expect(resolvePending(pending, on, 11_100, 11_200)).toEqual({ kind: 'waiting' });
    const off = { ...on, physicalState: false };
    expect(resolvePending(pending, off, 11_100, 11_200)).toEqual({ kind: 'waiting', sawOff: true });
    expect(resolvePending({ ...pending, sawOff: true }, on, 11_300, 11_400)).toEqual({ kind: 'confirmed' });
    expect(resolvePending(pending, on, 11_100, 23_001)).toMatchObject({
      kind: 'failed',
      reason: expect.stringContaining('whether it cycled is unknown'),
    });
  });
});
