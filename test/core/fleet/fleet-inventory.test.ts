/**
 * The fleet inventory (issue 16 item 9) against emulated controllers: contents, drift, last known values.
 *
 * @real-unit: rerun against the emulator's real-unit profile for identity, SSH, users and outlets as the unit
 * reports them.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, it } from 'vitest';
import type { InventoryRow } from '../../../src-preload/contract';
import { compareVersions } from '../../../src-main/core/fleet/inventory-rows';
import { addController, cleanUp, emulator, newCore, until } from '../harness';

afterEach(cleanUp);

it('compares versions numerically, part by part', () => {
  expect(compareVersions('1.10.2', '1.9.8')).toBeGreaterThan(0);
  expect(compareVersions('1.9.8', '1.10.2')).toBeLessThan(0);
  expect(compareVersions('1.12.14.0', '1.12.14')).toBe(0);
  expect(compareVersions('1.12.14.1', '1.12.14')).toBeGreaterThan(0);
});

it('lists model, serial, firmware, SSH, users and outlets on per controller, marks drift, and keeps the last known values of an offline one', async () => {
  const newer = await emulator({ model: 'LPC9', serial: 'LPC9000101', firmware: '1.10.2.0' });
  const older = await emulator({
    model: 'LPC9',
    serial: 'LPC9000102',
    firmware: '1.9.8.0',
    initialStates: [true, true, false, false, false, false, false, false],
  });
  const other = await emulator({ model: 'LPC7', serial: 'LPC7000103', firmware: '1.8.0.0' });
  // The emulator answers one relay firmware (1.3.1); this unit reports a newer one.
  newer.device.setConfig({ relayFirmware: '1.4.0' } as never);
  older.device.setConfig({ sshEnabled: true });
  older.device.addUser({ name: 'bob', password: 'bobs-pw', isAdmin: false });
  const h = newCore();
  await h.ok('settings/set', { pollIntervalMs: 500 });
  const a = await addController(h, newer, { name: 'Newer' });
  const b = await addController(h, older, { name: 'Older' });
  const c = await addController(h, other, { name: 'Other model' });

  // Users and SSH arrive in the background; the answer never waits for them.
  await expect
    .poll(
      async () => (await h.ok<InventoryRow[]>('fleet/inventory', {})).every((r) => r.userCount !== null),
      {
        timeout: 15_000,
      },
    )
    .toBe(true);
  const rows = await h.ok<InventoryRow[]>('fleet/inventory', {});
  const row = (id: string) => rows.find((r) => r.controllerId === id)!;
  expect(row(a.id)).toMatchObject({
    name: 'Newer',
    model: 'LPC9',
    serial: 'LPC9000101',
    firmware: '1.10.2.0',
    relayFirmware: '1.4.0',
    firmwareBehind: null,
    relayFirmwareBehind: null,
    sshEnabled: false,
    stale: false,
    status: 'online',
  });
  expect(row(b.id)).toMatchObject({
    firmware: '1.9.8.0',
    firmwareBehind: '1.10.2.0',
    relayFirmware: '1.3.1',
    relayFirmwareBehind: '1.4.0',
    sshEnabled: true,
    userCount: row(a.id).userCount! + 1,
    outletsOn: 2,
  });
  expect(row(b.id).outletCount).toBe(older.device.outletCount);
  // Another model is never drift, whatever its version.
  expect(row(c.id)).toMatchObject({ model: 'LPC7', firmwareBehind: null });
  expect(row(b.id).lastSeen).toBeGreaterThan(0);

  // CSV: a header, one row per controller, drift in its own column.
  const { filename, text } = await h.ok<{ filename: string; text: string }>('fleet/inventoryCsv', {});
  expect(filename).toMatch(/^plugboard-inventory-.+\.csv$/);
  const lines = text.split('\r\n');
  expect(lines[0]).toBe(
    'controller,status,last_known,model,serial,firmware,newer_firmware_on_model,relay_firmware,newer_relay_firmware_on_model,ssh,users,outlets_on,outlets,last_seen',
  );
  expect(lines.find((l) => l.startsWith('Older,'))).toMatch(
    /^Older,online,no,LPC9,LPC9000102,1\.9\.8\.0,1\.10\.2\.0,1\.3\.1,1\.4\.0,on,\d+,2,8,\d{4}-\d\d-\d\dT[\d:.]+Z$/,
  );

  // Offline: the last known values stay, marked as such.
  await older.close();
  await until(h, b.id, (s) => s.status === 'offline', 30_000);
  const offline = (await h.ok<InventoryRow[]>('fleet/inventory', {})).find((r) => r.controllerId === b.id)!;
  expect(offline).toMatchObject({
    status: 'offline',
    stale: true,
    serial: 'LPC9000102',
    firmware: '1.9.8.0',
    sshEnabled: true,
  });
});

it('shows the last known values of a controller that does not answer after a restart (inventory.json)', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'plugboard-inventory-'));
  try {
    const emu = await emulator({ serial: 'LPC9000111', firmware: '1.11.0.0' });
    const h = newCore({ dataDir });
    const { id } = await addController(h, emu, { name: 'Shelf' });
    const file = join(dataDir, 'inventory.json');
    await expect
      .poll(() => (existsSync(file) ? readFileSync(file, 'utf8') : ''), { timeout: 15_000 })
      .toContain('LPC9000111');
    expect(statSync(file).mode & 0o077).toBe(0);
    await h.core.dispose();
    await emu.close();

    // The same saved controllers and config folder; the unit is gone.
    const again = newCore({ dataDir, store: h.store, secrets: h.secrets });
    await until(again, id, (s) => s.status === 'offline', 30_000);
    const row = (await again.ok<InventoryRow[]>('fleet/inventory', {})).find((r) => r.controllerId === id)!;
    expect(row).toMatchObject({ stale: true, status: 'offline', serial: 'LPC9000111', firmware: '1.11.0.0' });
    expect(row.lastSeen).toBeGreaterThan(0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
