/**
 * The leadership's timing on the fake clock, over a lease kept in memory with the database's rules
 * (service-lease.ts: the holder renews, anyone takes an expired lease, the expiry counted by the
 * database's clock when it runs the claim). The SQL itself is tested on PostgreSQL
 * (test/serve/standby.system.test.ts). A pause (SIGSTOP) is time that passes on the monotonic clock
 * while no timer fires.
 */
import { describe, expect, it } from 'vitest';
import { LeaseLeadership, standbyError, type LeaseTiming } from '../../../src-main/core/database/leadership';
import type { LeaseClaim, LeaseStore } from '../../../src-main/core/database/service-lease';
import { PlugboardError } from '../../../src-main/shared/errors';
import { FakeClock } from '../fake-clock';

const TIMING: LeaseTiming = { leaseMs: 6000, renewMs: 2000, retryMs: 1000, marginMs: 1000 };

/** The lease row as the database keeps it, on the fake clock (the database's own). */
class LeaseRow {
  token: string | null = null;
  name: string | null = null;
  address: string | null = null;
  epoch = 0;
  expiresAt = 0;
  down = false;
  /** Claims wait for this before the database runs them (a reply delayed, a pause). */
  gate: Promise<void> | null = null;

  constructor(readonly clock: FakeClock) {}

  lease(token: string, name: string, address: string | null): LeaseStore {
    return {
      claim: async (leaseMs): Promise<LeaseClaim> => {
        if (this.down) throw new Error('connect ECONNREFUSED 127.0.0.1:5432');
        await this.gate;
        if (this.token === token || this.token === null || this.expiresAt <= this.clock.now()) {
          if (this.token !== token) this.epoch += 1;
          Object.assign(this, { token, name, address, expiresAt: this.clock.now() + leaseMs });
          return { held: true, epoch: this.epoch };
        }
        const current = this.expiresAt > this.clock.now();
        return {
          held: false,
          holder: current ? { name: this.name!, address: this.address, epoch: this.epoch } : null,
        };
      },
      release: async () => {
        if (this.token === token) this.expiresAt = 0;
      },
    };
  }
}

function service(row: LeaseRow, name: string, paused: { ms: number }, logs: string[]) {
  return new LeaseLeadership({
    lease: row.lease(`${name}-token`, name, `https://${name}.lab:16422`),
    self: { name, address: `https://${name}.lab:16422` },
    where: 'PostgreSQL database "plugboard" on db.lab:5432',
    clock: row.clock,
    monotonic: () => row.clock.now() + paused.ms,
    log: (message) => logs.push(`${name}: ${message}`),
    timing: TIMING,
  });
}

function refusal(act: () => void): PlugboardError {
  try {
    act();
  } catch (error) {
    if (error instanceof PlugboardError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describe('the leadership', () => {
  it('counts as leading only once the takeover work it sets off is done', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const a = service(row, 'a', { ms: 0 }, []);
    let finish: () => void = () => undefined;
    const seen: boolean[] = [];
    a.onChange(async (leads) => {
      seen.push(leads, a.leads());
      await new Promise<void>((resolve) => (finish = resolve));
    });
    const started = a.start();
    await clock.advance(0);
    expect(seen).toEqual([true, false]);
    expect(refusal(() => a.assertMayWrite()).message).toBe(
      'This Plugboard service (a) does not lead the lab now (it is taking over the lab), so it switches nothing. Try again shortly.',
    );
    finish();
    await started;
    expect(a.leads()).toBe(true);
    expect(() => a.assertMayWrite()).not.toThrow();
    await a.release();
  });

  it('keeps the lead by renewing; a second service stands by and names it', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const logs: string[] = [];
    const a = service(row, 'a', { ms: 0 }, logs);
    const b = service(row, 'b', { ms: 0 }, logs);
    await a.start();
    await b.start();
    await clock.advance(60_000);
    expect(a.leads()).toBe(true);
    expect(b.leads()).toBe(false);
    const error = refusal(() => b.assertMayWrite());
    expect(error.code).toBe('STANDBY');
    expect(error.message).toBe(
      'This Plugboard service (b) is a standby: a leads the lab. Send changes to https://a.lab:16422.',
    );
    expect(error.detail).toEqual({ service: 'b', leader: 'a', leaderAddress: 'https://a.lab:16422' });
    expect(logs).toEqual(['a: a leads the lab (lease 1).', 'b: standby: a leads the lab.']);
    await Promise.all([a.release(), b.release()]);
  });

  it('after a pause past its lease refuses at once, before any timer or the database says so', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const paused = { ms: 0 };
    const a = service(row, 'a', paused, []);
    await a.start();
    await clock.advance(2500);
    expect(a.leads()).toBe(true);
    // SIGSTOP for 6 s: the monotonic clock moves, no timer fires, nothing is asked of the database.
    paused.ms += 6000;
    expect(a.leads()).toBe(false);
    expect(refusal(() => a.assertMayWrite()).code).toBe('STANDBY');
    await a.release();
  });

  it('does not lead on a renewal sent before a pause and answered after it', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const paused = { ms: 0 };
    const a = service(row, 'a', paused, []);
    await a.start();
    // The next renewal is sent, and its answer comes only after a pause longer than the lease.
    let answer: () => void = () => undefined;
    row.gate = new Promise<void>((resolve) => (answer = resolve));
    await clock.advance(2000);
    paused.ms += 7000;
    answer();
    row.gate = null;
    await clock.advance(0);
    expect(a.leads()).toBe(false);
    await a.release();
  });

  it('without the database it stops leading when its lease runs out, says so once, and leads again when it answers', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const logs: string[] = [];
    const a = service(row, 'a', { ms: 0 }, logs);
    const changes: boolean[] = [];
    a.onChange((leads) => void changes.push(leads));
    await a.start();
    await clock.advance(1000);
    row.down = true;
    // Last renewal sent at 0 ms: valid until 5 s (lease 6 s, margin 1 s), whatever the failures meanwhile.
    await clock.advance(3999);
    expect(a.leads()).toBe(true);
    await clock.advance(1);
    expect(a.leads()).toBe(false);
    const error = refusal(() => a.assertMayWrite());
    expect(error.message).toBe(
      'This Plugboard service (a) does not lead the lab now (it cannot reach the lab store PostgreSQL database "plugboard" on db.lab:5432), so it switches nothing. Try again shortly.',
    );
    await clock.advance(10_000);
    row.down = false;
    await clock.advance(1000);
    expect(a.leads()).toBe(true);
    expect(changes).toEqual([true, false, true]);
    expect(logs).toEqual([
      'a: a leads the lab (lease 1).',
      'a: a lost the lead: cannot reach the lab store PostgreSQL database "plugboard" on db.lab:5432: it switches nothing until it can.',
      'a: The lab store PostgreSQL database "plugboard" on db.lab:5432 answers again.',
      'a: a leads the lab (lease 1).',
    ]);
    await a.release();
  });

  it('notices the end of its lease when its timer fires a fraction of a millisecond early', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const logs: string[] = [];
    const a = new LeaseLeadership({
      lease: row.lease('a-token', 'a', null),
      self: { name: 'a', address: null },
      where: 'the store',
      // Node's timers count from the event loop's cached time: they may fire a little before the
      // monotonic clock reaches their end.
      clock: {
        now: () => clock.now(),
        setTimeout: (callback, ms) => clock.setTimeout(callback, Math.max(0, ms - 0.5)),
        clearTimeout: (handle) => clock.clearTimeout(handle),
      },
      monotonic: () => clock.now(),
      log: (message) => logs.push(message),
      timing: TIMING,
    });
    await a.start();
    row.down = true;
    await clock.advance(5000);
    expect(logs.at(-1)).toBe(
      'a lost the lead: cannot reach the lab store the store: it switches nothing until it can.',
    );
    await a.release();
  });

  it('a renewal the database never answers: at the end of its lease it says it cannot reach the store', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const logs: string[] = [];
    const a = service(row, 'a', { ms: 0 }, logs);
    await a.start();
    // Every claim from now on waits for an answer that does not come (a network that drops packets).
    let answer: () => void = () => undefined;
    row.gate = new Promise<void>((resolve) => (answer = resolve));
    await clock.advance(5000);
    expect(a.leads()).toBe(false);
    expect(logs.at(-1)).toBe(
      'a: a lost the lead: cannot reach the lab store PostgreSQL database "plugboard" on db.lab:5432: it switches nothing until it can.',
    );
    answer();
    row.gate = null;
    // Answered 3 s late: renewed again at once, it leads on without a gap.
    await clock.advance(10_000);
    expect(a.leads()).toBe(true);
    expect(logs.slice(2)).toEqual([
      'a: The lab store PostgreSQL database "plugboard" on db.lab:5432 answers again.',
      'a: a leads the lab (lease 1).',
    ]);
    await a.release();
  });

  it('a standby takes over within the lease and a retry after the leader stops answering, and the old one yields', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const logs: string[] = [];
    const pausedA = { ms: 0 };
    const a = service(row, 'a', pausedA, logs);
    const b = service(row, 'b', { ms: 0 }, logs);
    const previous: (string | null)[] = [];
    b.onChange((leads, before) => void (leads && previous.push(before?.name ?? null)));
    await a.start();
    await b.start();
    // a is killed: it renews no more (its timers are gone with it).
    await a.release();
    row.expiresAt = clock.now() + TIMING.leaseMs; // as if its last renewal had just run
    let waited = 0;
    while (!b.leads()) {
      await clock.advance(100);
      waited += 100;
    }
    expect(waited).toBeLessThanOrEqual(TIMING.leaseMs + TIMING.retryMs);
    expect(previous).toEqual(['a']);
    expect(row.epoch).toBe(2);
    await b.release();
  });

  it('yields when another service holds the lease, and names it', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const logs: string[] = [];
    const a = service(row, 'a', { ms: 0 }, logs);
    await a.start();
    // Another service took the row (an operator's intervention, a lease that ran out unseen).
    Object.assign(row, { token: 'c-token', name: 'c', address: null, expiresAt: clock.now() + 60_000 });
    await clock.advance(2000);
    expect(a.leads()).toBe(false);
    expect(logs.at(-1)).toBe('a: a lost the lead: c holds the lease now; c leads.');
    expect(refusal(() => a.assertMayWrite()).message).toBe(
      'This Plugboard service (a) is a standby: c leads the lab.',
    );
    await a.release();
  });

  it('gives the lease up as it stops, so a standby takes it at its next try', async () => {
    const clock = new FakeClock();
    const row = new LeaseRow(clock);
    const a = service(row, 'a', { ms: 0 }, []);
    const b = service(row, 'b', { ms: 0 }, []);
    await a.start();
    await b.start();
    await a.release();
    await clock.advance(TIMING.retryMs);
    expect(b.leads()).toBe(true);
    await b.release();
  });
});

describe('the standby refusal', () => {
  it('names the leader and its address, the leader alone, or why none is known', () => {
    expect(standbyError('b', { name: 'a', address: null }, 'x').message).toBe(
      'This Plugboard service (b) is a standby: a leads the lab.',
    );
    expect(standbyError('b', null, 'it cannot reach the lab store').detail).toEqual({
      service: 'b',
      leader: null,
      leaderAddress: null,
    });
  });
});
