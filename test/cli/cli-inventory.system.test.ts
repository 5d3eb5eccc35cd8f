/**
 * `plugboard inventory` through the Core, against emulators with the real keychain: every saved
 * controller's identity, firmware drift, SSH and users, as a table, JSON and CSV; a unit that does not
 * answer is listed with what is not known.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import { INVENTORY_FILE } from '../../src-main/core/index';
import type { InventoryRow } from '../../src-preload/model';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';
import { inKeychainSession } from './keychain-session';

const password = 'lab-pw-3302';
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close().catch(() => undefined)));
});

async function unit(serial: string, firmware: string): Promise<RunningEmulator> {
  const e = await startEmulator({ password, serial, firmware, model: 'LPC9' });
  running.push(e);
  return e;
}

const add = (name: string, e: RunningEmulator) => ({
  name: `add ${name}`,
  args: ['--url', e.url, '--password-stdin', 'controllers', 'add', name],
  stdin: password,
});

it('lists every saved controller with drift, SSH and users, as a table, JSON and CSV', async () => {
  const [newer, older, gone] = [
    await unit('LPC9000301', '1.10.2.0'),
    await unit('LPC9000302', '1.9.8.0'),
    await unit('LPC9000303', '1.12.14.0'),
  ];
  older.device.setConfig({ sshEnabled: true });
  const first = await inKeychainSession([
    add('Bench new', newer),
    add('Bench old', older),
    add('Gone', gone),
  ]);
  for (const step of Object.values(first.results)) expect(step.code, step.stderr).toBe(0);
  await gone.close();
  // What the adds learnt of the units is kept for the inventory (inventory.json); forget it, so "Gone" is
  // a unit this run never reached, whatever the adds' sessions managed to record before they ended.
  rmSync(join(first.configDir, INVENTORY_FILE), { force: true });

  const r = (
    await inKeychainSession(
      [
        { name: 'json', args: ['inventory', '--json', '--timeout', '30'] },
        { name: 'csv', args: ['inventory', '--csv', '--timeout', '30'] },
        { name: 'table', args: ['inventory', '--timeout', '30'] },
        { name: 'both', args: ['inventory', '--csv', '--json'] },
      ],
      first.home,
    )
  ).results;
  expect(r.json!.code, r.json!.stderr).toBe(0);
  const rows = JSON.parse(r.json!.stdout) as InventoryRow[];
  const row = (name: string) => rows.find((x) => x.name === name)!;
  expect(row('Bench old')).toMatchObject({
    status: 'online',
    serial: 'LPC9000302',
    firmware: '1.9.8.0',
    firmwareBehind: '1.10.2.0',
    sshEnabled: true,
    userCount: 1,
  });
  expect(row('Bench new')).toMatchObject({ firmwareBehind: null, sshEnabled: false });
  // Never reached in this run: nothing known, and not drift.
  expect(row('Gone')).toMatchObject({ status: 'offline', firmware: null, firmwareBehind: null });

  const csv = r.csv!.stdout.split('\r\n');
  expect(csv[0]).toMatch(/^controller,status,last_known,model,serial,firmware,newer_firmware_on_model,/);
  expect(csv.find((l) => l.startsWith('Bench old,'))).toMatch(
    /^Bench old,online,no,LPC9,LPC9000302,1\.9\.8\.0,1\.10\.2\.0,/,
  );

  expect(r.table!.code).toBe(0);
  expect(r.table!.stdout).toMatch(
    /Bench old\s+online\s+LPC9\s+LPC9000302\s+1\.9\.8\.0 \* \(1\.10\.2\.0 on same model\)/,
  );
  expect(r.table!.stdout).toContain('* older than the newest firmware seen on the same model');
  expect(r.both!.code).toBe(2);
  expect(r.both!.stderr).toContain('Give --json or --csv, not both.');
});
