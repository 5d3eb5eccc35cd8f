/**
 * Slow units (real ones take about 5 s to answer `GET relay/outlets/`), scaled down: each request has its
 * own deadline from when it leaves the controller's queue, a digest challenge's retry gets a fresh one,
 * and a write whose answer never came says it may have been carried out.
 */
import { describe, expect, it } from 'vitest';
import { parseCli } from '../../src-main/emulator/cli';
import { client, emulator, failure } from './helpers';

describe('deadlines on a slow unit', () => {
  it('does not count the wait in the queue: four reads of 500 ms each, queued at once, all fit a 1.5 s budget', async () => {
    const unit = await emulator({ slowOutletsMs: 500 });
    const c = client(unit.url, { timeoutMs: 1500 });
    await c.outlets.list();
    // The fourth waits for three others (≥ 1.5 s) before its own 0.5 s: only its own time counts.
    const reads = await Promise.all(Array.from({ length: 4 }, () => c.outlets.list()));
    expect(reads.map((outlets) => outlets.length)).toEqual([8, 8, 8, 8]);
    expect(unit.device.stats.maxInFlight).toBe(1);
  });

  it('gives a digest challenge its own deadline: an expired nonce on a slow unit still switches', async () => {
    const unit = await emulator({ initialStates: Array(8).fill(false) });
    const c = client(unit.url, { timeoutMs: 1000 });
    await c.outlets.list();
    // Every answer (the 401 too) now takes 600 ms: the challenge and its answer together take 1.2 s.
    unit.device.latency = 600;
    unit.device.expireNonces();
    const challengesBefore = c.stats.challenges;
    expect(await c.outlets.setState([2], true)).toEqual({ requested: [2], failed: [] });
    expect(c.stats.challenges).toBe(challengesBefore + 1);
    expect(unit.device.outlet(1).state).toBe(true);
  });

  it('still times out a request that takes too long itself, and says when a write may have happened', async () => {
    const unit = await emulator({ initialStates: Array(8).fill(false) });
    const c = client(unit.url, { name: 'Bench A', timeoutMs: 300 });
    await c.outlets.list();
    unit.device.slowOutletsMs = 900;
    const write = await failure(c.outlets.setState([3], true));
    expect(write.code).toBe('TIMEOUT');
    expect(write.message).toContain('Bench A did not answer within 0.3 s');
    expect(write.detail).toEqual({ timeoutMs: 300, unanswered: true });
    // The emulator carried it out before its late answer, as a busy unit does.
    expect(unit.device.outlet(2).state).toBe(true);
    const read = await failure(c.outlets.list());
    expect(read.code).toBe('TIMEOUT');
    expect(read.detail).toEqual({ timeoutMs: 300 });
    unit.device.slowOutletsMs = 0;
    expect(await c.outlets.list()).toHaveLength(8);
  });
});

describe('the emulator option', () => {
  it('takes --slow-outlets-ms and refuses a bad value with exit code 2', () => {
    const parsed = parseCli(['--slow-outlets-ms', '5000']);
    expect(parsed.ok && parsed.controllers[0]?.slowOutletsMs).toBe(5000);
    expect(parsed.ok || parsed.output).toBe(true);
    const bad = parseCli(['--slow-outlets-ms', 'soon']);
    expect(bad).toMatchObject({ ok: false, exitCode: 2, output: expect.stringMatching(/--slow-outlets-ms/) });
  });

  it('delays only answers under relay/outlets/', async () => {
    const unit = await emulator({ slowOutletsMs: 2000 });
    const c = client(unit.url, { timeoutMs: 1000 });
    // The firmware, the caller and the meters answer at once; the outlets do not.
    await c.identity();
    await c.caller();
    await c.meters();
    expect((await failure(c.outlets.list())).code).toBe('TIMEOUT');
  });
});
