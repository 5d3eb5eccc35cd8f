/**
 * A lab on PostgreSQL keeps its saved controllers in the lab store, not in this folder's config.json.
 * A command given `--url` at such a controller's address still goes through a Core that knows its
 * reservations: read from the store, not from a config.json that is empty here. Without that, the
 * address looks unsaved and a one-off Core switches a reserved outlet.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, expect, it } from 'vitest';
import type { ControllerSummary, Reservation } from '../../src-preload/contract';
import { dispatch } from '../../src-main/core/index';
import { openSavedCore } from '../../src-main/core/saved-core';
import { MemorySecretStore } from '../../src-main/secrets';
import { sharedPostgresDatabase } from '../system/shared-postgres';
import { PASSWORD, emulator } from './cli-fixtures';
import { cleanEnv, cli } from './run-cli';

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-cli-lab-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const closing: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

it("--url at a controller saved only in the lab store is checked against the lab's reservations", async () => {
  const urlFile = path.join(scratch, 'database');
  writeFileSync(urlFile, `${await sharedPostgresDatabase()}\n`, { mode: 0o600 });
  const database = { PLUGBOARD_DATABASE_URL_FILE: urlFile };
  const e = await emulator();
  for (const outlet of [2, 3]) e.device.setOutlet(outlet, { state: true });

  // The lab's service (its own folder) saves Bench A and alice reserves its outlet 3.
  const service = await openSavedCore({
    shell: 'test',
    version: '0.0.0-test',
    log: () => undefined,
    configDir: mkdtempSync(path.join(scratch, 'service-')),
    env: database,
    secrets: new MemorySecretStore(),
  });
  closing.push(() => service.dispose());
  const added = (await service.handlers['controllers/add']({
    url: e.url,
    name: 'Bench A',
    auth: { kind: 'digest', user: 'admin', password: PASSWORD },
  })) as ControllerSummary;
  const held = await dispatch(
    service.handlersAs({ door: 'window', who: 'alice', role: 'admin' }),
    'reservations/take',
    {
      target: { kind: 'outlet', controllerId: added.id, outlet: 3 },
      reason: 'flashing firmware',
      durationMs: 3_600_000,
    },
    () => undefined,
  );
  if (!held.ok) throw new Error(held.error.message);
  expect((held.value as Reservation).holder).toBe('alice');
  await service.dispose();
  closing.length = 0;

  // Another machine of the lab: an empty config folder, the same database.
  const home = mkdtempSync(path.join(scratch, 'desk-'));
  const env = cleanEnv({ ...database, HOME: home, PLUGBOARD_CONFIG_DIR: path.join(home, 'config') });
  const typed = ['--url', e.url, '--user', 'admin', '--password-stdin'];
  const refused = await cli([...typed, 'off', '3'], { env, stdin: `${PASSWORD}\n` });
  expect(refused.code, refused.stderr).toBe(5);
  expect(refused.stderr).toMatch(/reserved by alice/);
  expect(e.device.outlet(2).state).toBe(true);

  const free = await cli([...typed, 'off', '4'], { env, stdin: `${PASSWORD}\n` });
  expect(free.code, free.stderr).toBe(0);
  expect(e.device.outlet(3).state).toBe(false);
});
