import { describe, expect, it } from 'vitest';
import { outsideChanges } from '../../../src-main/core/session/outside-changes';
import { pendingDeadline, resolvePending, type PendingOutlet } from '../../../src-main/core/session/pending';
import { outlet } from '../outlet-fixture';

const pending = (patch: Partial<PendingOutlet> = {}): PendingOutlet => ({
  kind: 'state',
  target: true,
  since: 1000,
  answeredAt: 1010,
  deadline: 20_000,
  cycleEndsAt: null,
  sawOff: false,
  actor: { door: 'window', who: 'alice' },
  action: 'on',
  ...patch,
});

describe('resolvePending', () => {
  it('waits for the physical state, then confirms', () => {
    const lagging = outlet({ state: true, transientState: true, physicalState: false });
    expect(resolvePending(pending(), lagging, 1020, 1030)).toEqual({ kind: 'waiting' });
    expect(resolvePending(pending(), { ...lagging, physicalState: true }, 1020, 1030)).toEqual({
      kind: 'confirmed',
    });
  });

  it('waits while the request is on its way, and does not fail on a poll that started before the answer', () => {
    const done = outlet({ state: true, transientState: true, physicalState: true });
    expect(resolvePending(pending({ answeredAt: null }), done, 1020, 1030)).toEqual({ kind: 'waiting' });
    // Read before the change: the old values say nothing about whether it worked.
    const old = outlet({ state: false, transientState: false, physicalState: false });
    expect(resolvePending(pending(), old, 1005, 1030)).toEqual({ kind: 'waiting' });
    expect(resolvePending(pending(), { ...old, state: true }, 1005, 1030)).toEqual({ kind: 'waiting' });
  });

  it('confirms as soon as a reading shows the change done, even one that started before the answer', () => {
    // A slow full read that began before the write and ended after it: the relay is already where it
    // was asked to be, so the outlet is not shown pending beside a confirmed state.
    const done = outlet({ state: true, transientState: true, physicalState: true });
    expect(resolvePending(pending(), done, 1005, 1030)).toEqual({ kind: 'confirmed' });
    const temporary = outlet({ state: false, transientState: true, physicalState: true });
    expect(resolvePending(pending({ kind: 'transientState' }), temporary, 1005, 1030)).toEqual({
      kind: 'confirmed',
    });
    // A cycle still needs a reading after the answer: before it, the relay was on anyway.
    const cycle = pending({ kind: 'cycle', cycleEndsAt: 4010 });
    expect(resolvePending(cycle, done, 1005, 5000)).toEqual({ kind: 'waiting' });
  });

  it('fails when the asked-for field says otherwise, and when the deadline passes', () => {
    const other = resolvePending(pending(), outlet({ state: false }), 1020, 1030);
    expect(other).toMatchObject({ kind: 'failed', reason: expect.stringContaining('state as off') });
    const transient = resolvePending(
      pending({ kind: 'transientState' }),
      outlet({ state: true }),
      1020,
      1030,
    );
    expect(transient).toMatchObject({ kind: 'failed', reason: expect.stringContaining('transient state') });
    const late = resolvePending(pending(), outlet({ state: true, transientState: true }), 1020, 20_001);
    expect(late).toMatchObject({ kind: 'failed', reason: expect.stringContaining('within 19 s') });
  });

  it('confirms a cycle once the relay is back on after its off-time', () => {
    const cycle = pending({ kind: 'cycle', cycleEndsAt: 4010 });
    const off = outlet({ state: true, transientState: true, physicalState: false });
    const on = { ...off, physicalState: true };
    expect(resolvePending(cycle, off, 1020, 2000)).toEqual({ kind: 'waiting', sawOff: true });
    expect(resolvePending(cycle, on, 1020, 2000)).toEqual({ kind: 'waiting' });
    expect(resolvePending(cycle, on, 1020, 4010)).toEqual({ kind: 'confirmed' });
    expect(resolvePending({ ...cycle, sawOff: true }, on, 1020, 2000)).toEqual({ kind: 'confirmed' });
  });

  it('judges a cycle by the relay, whichever way the transient state moves', () => {
    const cycle = pending({ kind: 'cycle', cycleEndsAt: 4010, deadline: 15_000 });
    // Transient state following the relay: off with it, then on again.
    const whollyOff = outlet({ state: true, transientState: false, physicalState: false });
    expect(resolvePending(cycle, whollyOff, 1020, 2000)).toEqual({ kind: 'waiting', sawOff: true });
    const backOn = { ...whollyOff, transientState: true, physicalState: true };
    expect(resolvePending({ ...cycle, sawOff: true }, backOn, 1020, 4100)).toEqual({ kind: 'confirmed' });
    // The relay still off after the deadline fails it, either way.
    for (const transientState of [true, false]) {
      const stuck = resolvePending(cycle, { ...whollyOff, transientState }, 1020, 15_001);
      expect(stuck).toMatchObject({ kind: 'failed', reason: expect.stringContaining('stays off') });
    }
  });
});

describe('pendingDeadline', () => {
  it('allows the on-sequence of every outlet switched on, the cycle off-time and slack', () => {
    const facts = { sequenceDelayS: 0.5, cycleDelayS: 3, switchedOn: 8, slackMs: 10_000 };
    expect(pendingDeadline('state', 0, facts)).toBe(14_000);
    expect(pendingDeadline('cycle', 0, { ...facts, switchedOn: 1 })).toBe(13_500);
    // Unknown delays are assumed generous: 2 s per outlet, 10 s off-time.
    expect(
      pendingDeadline('cycle', 0, { ...facts, sequenceDelayS: null, cycleDelayS: null, switchedOn: 1 }),
    ).toBe(22_000);
  });
});

describe('outsideChanges', () => {
  it('notes switching, temporary switching, cycles, locks and renames nobody in Plugboard asked for', () => {
    const before = [1, 2, 3, 4, 5].map((number) =>
      outlet({ number, name: `Outlet ${number}`, state: true, transientState: true, physicalState: true }),
    );
    const after = before.map((o) => ({ ...o }));
    after[0] = { ...after[0]!, state: false, transientState: false, physicalState: false };
    after[1] = { ...after[1]!, transientState: false, physicalState: false };
    after[2] = { ...after[2]!, physicalState: false };
    after[3] = { ...after[3]!, locked: true, name: 'PSU' };
    expect(outsideChanges(before, after, new Set())).toEqual([
      { outlet: 1, action: 'off' },
      { outlet: 2, action: 'off (temporary)' },
      { outlet: 3, action: 'cycle' },
      { outlet: 4, action: 'locked' },
      { outlet: 4, action: 'renamed to "PSU"' },
    ]);
  });

  it('skips outlets with a pending Plugboard change and the relay catching up after the on-sequence', () => {
    const before = [outlet({ number: 1 }), outlet({ number: 2, state: true, transientState: true })];
    const after = [
      outlet({ number: 1, state: true, transientState: true, physicalState: true }),
      { ...before[1]!, physicalState: true },
    ];
    expect(outsideChanges(before, after, new Set([1]))).toEqual([]);
  });
});
