/**
 * kill -9 of the built `plugboard serve` (SQLite in its config folder, and PostgreSQL: a database of the
 * run's cluster), and what the next start finds:
 * - in the middle of a storm of switches through pdudaemon: every switch that was answered has its
 *   activity entry (an answer waits for its entry to be written);
 * - in the middle of a sequence: the run is marked where it stopped, and the emulator's request log shows
 *   no outlet switched twice (nothing replayed);
 * - in the middle of a delayed cycle, after its off: the outlet is still off, nothing switched it on, and
 *   it is reported as left off by an interrupted cycle.
 * Everything waits on the service's lines, the emulator's request log or the link's events, never on
 * elapsed time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Group, SequenceRun } from '../../src-preload/contract';
import { connectRemoteCore, type CoreLink } from '../../src-main/link';
import { openLabRecords, type LabRecords } from '../../src-main/core/index';
import { sharedPostgresDatabase } from '../system/shared-postgres';
import {
  cleanUpServe,
  savedBench,
  serveBuilt,
  writeTokens,
  type SavedBench,
  type ServeProcess,
} from './built-serve';
import { pduGet } from './pdudaemon-client';

const ADMIN = 'admin-secret-0123456789abcdef';
const links: CoreLink[] = [];
const opened: LabRecords[] = [];
afterEach(async () => {
  await Promise.all(links.splice(0).map((l) => l.close()));
  for (const records of opened.splice(0)) await records.store.close();
  await cleanUpServe();
});

interface Served {
  service: ServeProcess;
  api: string;
  pdudaemon: number;
}

/** Start the service on the bench's folder (and `env`'s store); resolves at Ready. */
async function serve(bench: SavedBench, env: NodeJS.ProcessEnv): Promise<Served> {
  const service = serveBuilt(
    ['--listen', 'api=127.0.0.1:0', '--listen', 'pdudaemon=127.0.0.1:0', '--config-dir', bench.configDir],
    { CREDENTIALS_DIRECTORY: bench.credentials, ...env },
  );
  const api = (await service.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
  const pdudaemon = Number((await service.line(/^pdudaemon: 127\.0\.0\.1:(\d+) /))[1]);
  await service.line(/^Ready\.$/);
  return { service, api, pdudaemon };
}

async function killNine(served: Served): Promise<void> {
  served.service.child.kill('SIGKILL');
  expect((await served.service.exit).signal).toBe('SIGKILL');
}

async function link(served: Served): Promise<CoreLink> {
  const made = await connectRemoteCore(served.api, { token: ADMIN });
  links.push(made);
  return made;
}

/** The lab store the service used, opened by the test. */
async function store(bench: SavedBench, env: NodeJS.ProcessEnv): Promise<LabRecords> {
  const records = await openLabRecords(bench.configDir, '0.0.0-test', () => undefined, Date.now(), env);
  opened.push(records);
  return records;
}

/** The emulator's writes (not the polls' reads) to outlet `n`'s state, oldest first. */
const writesTo = (bench: SavedBench, n: number) =>
  bench.emu.device.stats.log.filter(
    (entry) => entry.method !== 'GET' && new RegExp(`outlets/(=?[0-9,]*\\b${n - 1}\\b)`).test(entry.path),
  );

/** Resolves once `check` holds (looked at again every few ms: the emulator and the store send no events). */
async function once(check: () => boolean | Promise<boolean>): Promise<void> {
  while (!(await check())) await new Promise((resolve) => setTimeout(resolve, 5));
}

const engines: [string, () => Promise<NodeJS.ProcessEnv>][] = [
  ['SQLite', async () => ({})],
  ['PostgreSQL', async () => ({ PLUGBOARD_DATABASE_URL: await sharedPostgresDatabase() })],
];

describe.each(engines)('kill -9 on %s', (_engine, envOf) => {
  it('loses no activity entry of a switch that was answered, in the middle of a storm', async () => {
    const env = await envOf();
    const bench = await savedBench();
    writeTokens(bench.credentials, [`admin[admin]:${ADMIN}`]);
    const served = await serve(bench, env);
    const answered: { outlet: number; on: boolean }[] = [];
    let stop = false;
    const client = async (outlet: number) => {
      for (let on = false; !stop; on = !on) {
        const reply = await pduGet(
          served.pdudaemon,
          `/power/control/${on ? 'on' : 'off'}?hostname=bench-a&port=${outlet}`,
        ).catch(() => null);
        if (reply === null) return; // the service is gone: this one was not answered
        if (reply.status === 200) answered.push({ outlet, on });
      }
    };
    const clients = [1, 2, 3, 4, 5, 6].map((outlet) => client(outlet));
    // Killed while requests are in flight, right after an answer: no flush delay saves it.
    await once(() => answered.length >= 60);
    await killNine(served);
    stop = true;
    await Promise.all(clients);

    const again = await serve(bench, env);
    const records = await store(bench, env);
    const entries = await records.activity.records.select({ controllerId: bench.controller.id });
    const count = (list: { outlet: number | null; action: string }[], outlet: number, action: string) =>
      list.filter((e) => e.outlet === outlet && e.action === action).length;
    for (const outlet of [1, 2, 3, 4, 5, 6])
      for (const action of ['on', 'off']) {
        const asked = answered.filter((a) => a.outlet === outlet && (a.on ? 'on' : 'off') === action);
        expect(count(entries, outlet, action), `outlet ${outlet} ${action}`).toBeGreaterThanOrEqual(
          asked.length,
        );
      }
    await killNine(again);
  });

  it('marks a sequence killed mid-run where it stopped, and switches nothing twice', async () => {
    const env = await envOf();
    const bench = await savedBench();
    writeTokens(bench.credentials, [`admin[admin]:${ADMIN}`]);
    const served = await serve(bench, env);
    const handlers = (await link(served)).handlersAs({ door: 'cli', who: 'alice' });
    const group: Group = await handlers['sequences/save']({
      name: 'Rack 7 power-on',
      steps: [
        { controllerId: bench.controller.id, outlets: [1], wait: { kind: 'delay', seconds: 0 } },
        { controllerId: bench.controller.id, outlets: [2], wait: { kind: 'delay', seconds: 600 } },
        { controllerId: bench.controller.id, outlets: [3], wait: { kind: 'delay', seconds: 0 } },
      ],
    });
    const { runId } = await handlers['sequences/run']({ id: group.id, action: 'on' });
    // Step 2 switched and recorded as done, the run waits before step 3: kill it there.
    const records = await store(bench, env);
    await once(async () => {
      const row = await records.store.db
        .selectFrom('sequence_run')
        .select('run')
        .where('run_id', '=', runId)
        .executeTakeFirst();
      return row !== undefined && (JSON.parse(row.run) as SequenceRun).waitingUntil !== null;
    });
    await killNine(served);

    const again = await serve(bench, env);
    await again.service.errLine(/^.*Sequence 'Rack 7 power-on' stopped at step 3 of 3 \(killed at/);
    const runs = await (await link(again)).handlersAs({ door: 'cli', who: 'alice' })['sequences/runs']({});
    const run = runs.find((r: SequenceRun) => r.runId === runId)!;
    expect(run.status).toBe('killed');
    expect(run.steps.map((s) => s.status)).toEqual(['done', 'done', 'skipped']);
    const reported = await records.activity.records.select({ controllerId: bench.controller.id });
    expect(reported.filter((e) => e.action === "sequence 'Rack 7 power-on' interrupted")).toHaveLength(1);
    // Nothing replayed: each switched outlet was written once, the step not reached never.
    expect([1, 2, 3].map((n) => writesTo(bench, n).length)).toEqual([1, 1, 0]);
    await killNine(again);
  });

  it('reports an outlet a delayed cycle left off, and does not switch it on', async () => {
    const env = await envOf();
    const bench = await savedBench();
    const served = await serve(bench, env);
    bench.emu.device.outlet(2).state = true;
    const cycling = pduGet(served.pdudaemon, '/power/control/reboot?hostname=bench-a&port=3&delay=300').catch(
      () => null,
    );
    await Promise.race([
      once(() => writesTo(bench, 3).some((w) => w.status >= 200 && w.status < 300)),
      cycling.then((reply) => {
        throw new Error(`the cycle was answered before its off: ${reply?.status} ${reply?.body}`);
      }),
    ]);
    await killNine(served);
    await cycling;
    expect(bench.emu.device.outlet(2).state).toBe(false);

    const again = await serve(bench, env);
    const line = await again.service.errLine(
      /^.*bench-a outlet 3 .*was left off by an interrupted cycle: (.*)$/,
    );
    expect(line[1]).toMatch(
      /^pdudaemon client 127\.0\.0\.1 \(pdudaemon-http\) asked at \d\d:\d\d for "cycle: off for 300 s"/,
    );
    const records = await store(bench, env);
    const reported = await records.activity.records.select({ controllerId: bench.controller.id, outlet: 3 });
    expect(reported.filter((e) => e.action === 'left off by an interrupted cycle')).toHaveLength(1);
    expect(await records.promises.standing()).toEqual([]);
    // Nothing switched it on: one write (the off), and the relay still off.
    expect(writesTo(bench, 3)).toHaveLength(1);
    expect(bench.emu.device.outlet(2).state).toBe(false);
    await killNine(again);
  });
});
