/**
 * A desk follows a lab's leader: two built `plugboard serve` on one PostgreSQL store (one leads, the
 * other is a standby naming it), the standby's address given first. The desk signs in and links to the
 * leader; the leader is killed, the desk is offline, reaches the standby by itself, and once that one
 * leads, a switch through the desk works there. Every wait is on something the desk pushes or a line a
 * service prints.
 */
import { cpSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import type { LabSummary } from '../../src-preload/model';
import { sharedPostgresDatabase } from '../system/shared-postgres';
import { cleanUpServe, cliBuilt, savedBench, serveBuilt } from '../serve/built-serve';
import { PASSWORD, startDesk, type Cleanup } from './lab-fixture';

vi.setConfig({ testTimeout: 120_000 });

const cleanups: Cleanup[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
  await cleanUpServe();
});

/** A loopback port nobody listens on now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

it('links to the leader, and after the leader dies to the standby that takes over', async () => {
  const database = await sharedPostgresDatabase();
  const bench = await savedBench();
  const serve = async (name: string) => {
    const port = await freePort();
    const configDir = path.join(bench.scratch, `config-${name}`);
    cpSync(bench.configDir, configDir, { recursive: true });
    const origin = `http://127.0.0.1:${port}`;
    const process = serveBuilt(
      ['--listen', `api=127.0.0.1:${port}`, '--config-dir', configDir, '--name', name, '--advertise', origin],
      { CREDENTIALS_DIRECTORY: bench.credentials, PLUGBOARD_DATABASE_URL: database },
    );
    await process.line(/^Ready\.$/);
    return { process, origin, configDir };
  };
  const a = await serve('lab-a');
  await a.process.line(/^lab: lab-a leads the lab\.$/);
  const b = await serve('lab-b');
  await b.process.line(/^lab: standby: lab-a leads/);
  const added = await cliBuilt(
    ['accounts', 'add', 'ada', '--role', 'operator', '--password-stdin'],
    { PLUGBOARD_CONFIG_DIR: a.configDir, PLUGBOARD_DATABASE_URL: database },
    `${PASSWORD}\n`,
  );
  expect(added.code, added.stderr).toBe(0);

  const desk = startDesk(cleanups);
  const lab = await desk.ok<LabSummary>('labs/add', { addresses: [b.origin, a.origin] });
  expect(lab.name).toBe('lab-b');
  await desk.ok('labs/signIn', { lab: lab.id, name: 'ada', password: PASSWORD });
  const online = await desk.lab(lab.id, (s) => s.status === 'online');
  expect(online.service).toBe(a.origin);

  const mark = desk.events.length;
  a.process.child.kill('SIGKILL');
  await a.process.exit;
  await desk.lab(lab.id, (s) => s.status === 'offline', mark);
  const again = await desk.lab(lab.id, (s) => s.status === 'online', mark);
  expect(again.service).toBe(b.origin);
  await b.process.errLine(/lab-b leads the lab/);
  const was = bench.emu.device.outlet(0).physicalState;
  await desk.ok('labs/call', {
    lab: lab.id,
    name: 'outlets/set',
    input: { controllerId: bench.controller.id, outlets: [1], on: !was },
  });
  await vi.waitFor(() => expect(bench.emu.device.outlet(0).physicalState).toBe(!was), { timeout: 20_000 });
});
