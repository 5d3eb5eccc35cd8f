/**
 * Two built `plugboard serve` on one PostgreSQL and one emulated unit (standby-lab.ts): exactly one
 * leads; a standby refuses a switch (503, naming the leader) and the unit hears nothing of it; the
 * standby leads after a kill -9 of the leader, and after a SIGSTOP past the lease, when the paused one
 * switches nothing it was asked meanwhile; a service whose database goes away says so, refuses
 * switches, serves reads and leads again when the database is back. Every wait is on a line the
 * service prints or an answer; the timeouts are backstops.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPostgresCluster, freshDatabase, type PostgresCluster } from '../system/postgres-cluster';
import { sharedPostgresDatabase } from '../system/shared-postgres';
import { cleanUpServe } from './built-serve';
import {
  changesSince,
  labOnPostgres,
  pduSwitch,
  status,
  step,
  switchOutlet,
  waitForLines,
} from './standby-lab';

vi.setConfig({ testTimeout: 120_000 });
afterEach(cleanUpServe);

describe('a standby service', () => {
  it('exactly one leads; a switch sent to the standby is refused with 503 naming the leader, and the unit hears nothing', async () => {
    const lab = await labOnPostgres(await sharedPostgresDatabase());
    const a = await lab.serve('lab-a');
    await a.process.line(/^lab: lab-a leads the lab\.$/);
    const b = await lab.serve('lab-b');
    await b.process.line(/^lab: standby: lab-a leads the lab \(http:\/\/lab-a\.test:16422\)\.$/);
    expect(await status(a.api)).toEqual({
      service: 'lab-a',
      role: 'leader',
      leader: 'lab-a',
      leaderAddress: 'http://lab-a.test:16422',
      signIn: { password: true, provider: null },
    });
    expect(await status(b.api)).toEqual({
      service: 'lab-b',
      role: 'standby',
      leader: 'lab-a',
      leaderAddress: 'http://lab-a.test:16422',
      signIn: { password: true, provider: null },
    });
    const before = Date.now();
    const refused = await switchOutlet(b.api, 'off');
    expect(refused.status).toBe(503);
    expect(refused.body).toEqual({
      error: {
        code: 'STANDBY',
        message:
          'This Plugboard service (lab-b) is a standby: lab-a leads the lab. Send changes to http://lab-a.test:16422.',
        detail: { service: 'lab-b', leader: 'lab-a', leaderAddress: 'http://lab-a.test:16422' },
      },
    });
    const pdu = await pduSwitch(b.pdudaemon, 'off');
    expect(pdu.status).toBe(503);
    expect(pdu.body.trim()).toBe(refused.body.error.message);
    // Reads still answer on the standby, from what it knows.
    const read = await fetch(`${b.api}/api/v1/controllers`, { headers: lab.auth });
    expect(read.status).toBe(200);
    expect(changesSince(lab.emu, before)).toEqual([]);
    // The leader switches.
    expect((await switchOutlet(a.api, 'off')).status).toBe(200);
    expect(changesSince(lab.emu, before).length).toBeGreaterThan(0);
  });

  it('after kill -9 of the leader the standby leads, and switches through it work', async () => {
    const lab = await labOnPostgres(await sharedPostgresDatabase());
    const a = await lab.serve('lab-a');
    await a.process.line(/^lab: lab-a leads the lab\.$/);
    const b = await lab.serve('lab-b');
    await b.process.line(/^lab: standby: lab-a leads/);
    a.process.child.kill('SIGKILL');
    await a.process.exit;
    await b.process.errLine(/lab-b leads the lab/);
    expect((await status(b.api)).role).toBe('leader');
    const before = Date.now();
    expect((await switchOutlet(b.api, 'off')).status).toBe(200);
    expect(changesSince(lab.emu, before).length).toBeGreaterThan(0);
  });

  it('a leader paused past its lease switches nothing it was asked meanwhile, answers STANDBY, and the standby leads', async () => {
    const lab = await labOnPostgres(await sharedPostgresDatabase());
    const a = await lab.serve('lab-a');
    await a.process.line(/^lab: lab-a leads the lab\.$/);
    const b = await lab.serve('lab-b');
    await b.process.line(/^lab: standby: lab-a leads/);
    a.process.child.kill('SIGSTOP');
    try {
      await b.process.errLine(/lab-b leads the lab/);
      const paused = Date.now();
      // The paused service's sockets accept; the requests wait there for it to run again.
      const written: Promise<void>[] = [];
      const sent = () => {
        let done: () => void = () => undefined;
        written.push(new Promise<void>((resolve) => (done = resolve)));
        return done;
      };
      const queued = switchOutlet(a.api, 'off', sent());
      const pdu = pduSwitch(a.pdudaemon, 'off', sent());
      await Promise.all(written);
      a.process.child.kill('SIGCONT');
      const answer = await queued;
      expect(answer.status).toBe(503);
      expect(answer.body.error.code).toBe('STANDBY');
      expect((await pdu).status).toBe(503);
      await a.process.errLine(/lab-a lost the lead/);
      expect(changesSince(lab.emu, paused)).toEqual([]);
      // It hears who leads at its next claim (its own lease may have run out first).
      await vi.waitFor(
        async () => expect(await status(a.api)).toMatchObject({ role: 'standby', leader: 'lab-b' }),
        {
          timeout: 30_000,
          interval: 100,
        },
      );
      expect((await status(b.api)).role).toBe('leader');
    } finally {
      a.process.child.kill('SIGCONT');
    }
  });
});

describe('a service whose database goes away', () => {
  let cluster: PostgresCluster | null = null;
  afterEach(async () => {
    await cluster?.stop();
    cluster = null;
  });

  it('says so, refuses switches with a sentence, serves reads, and leads again when it is back', async () => {
    cluster = await startPostgresCluster();
    const lab = await labOnPostgres(await freshDatabase(cluster.url));
    const a = await lab.serve('lab-a');
    await step('lab-a to lead', a.process.line(/^lab: lab-a leads the lab\.$/), a);
    await step('the database to stop', cluster.halt(), a);
    await step(
      'lab-a to say it cannot reach the store',
      a.process.errLine(
        /lab-a lost the lead: cannot reach the lab store PostgreSQL database "t_\w+" on 127\.0\.0\.1:\d+: it switches nothing until it can\./,
      ),
      a,
    );
    const before = Date.now();
    const refused = await step('a refusal', switchOutlet(a.api, 'off'), a);
    expect(refused.status).toBe(503);
    expect(refused.body.error.message).toMatch(
      /^This Plugboard service \(lab-a\) does not lead the lab now \(it cannot reach the lab store PostgreSQL database "t_\w+" on 127\.0\.0\.1:\d+\), so it switches nothing\. Try again shortly\.$/,
    );
    const read = await step('a read', fetch(`${a.api}/api/v1/controllers`, { headers: lab.auth }), a);
    expect(read.status).toBe(200);
    expect(((await read.json()) as { name: string }[]).map((c) => c.name)).toEqual(['bench-a']);
    expect(changesSince(lab.emu, before)).toEqual([]);
    await step('the database to start again', cluster.resume(), a);
    await step('lab-a to lead again', waitForLines(a.process, /lab-a leads the lab/, 2), a);
    expect((await step('a switch', switchOutlet(a.api, 'off'), a)).status).toBe(200);
  });
});
