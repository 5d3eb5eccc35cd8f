/** Meters, scripts, users, SSH, reboot and the tree against the emulator. */
import { describe, expect, it } from 'vitest';
import { JOULES_TO_KWH, KELVIN_OFFSET } from '../../src-main/dli/meters';
import { ZERO_CURRENT } from '../../src-main/emulator';
import { access, allOff, client, emulator, failure } from './helpers';

describe('meters', () => {
  it('reads every meter in one request and converts like the controller', async () => {
    // With every outlet off nothing is drawn, so the pinned energy does not move before it is read.
    const unit = allOff(await emulator());
    unit.device.setMeter('buses.0.total_energy', 7_200_000);
    unit.device.setMeter('environment.temperature', 310.5);
    unit.device.setMeter('buses.0.current', ZERO_CURRENT);
    const c = client(unit.url);
    await c.outlets.list();
    unit.device.stats.reset();
    const readings = (await c.meters())!;
    expect(unit.device.stats.requests).toBe(1);
    const byKey = Object.fromEntries(readings.map((r) => [r.key, r]));
    expect(byKey['buses.0.total_energy']).toMatchObject({ value: 7_200_000 * JOULES_TO_KWH, unit: 'kWh' });
    expect(byKey['environment.temperature']).toMatchObject({ value: 310.5 - KELVIN_OFFSET, unit: '°C' });
    expect(byKey['buses.0.current']).toMatchObject({ value: 0, unit: 'A' });
    expect(byKey['buses.0.voltage']!.value).toBeGreaterThan(100);
  });

  it('says "no meters" on a controller without them', async () => {
    const unit = await emulator({ meters: false });
    expect(await client(unit.url).meters()).toBeNull();
  });
});

describe('scripts', () => {
  it('lists functions and threads, starts with typed arguments and stops', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    const before = await c.scripts.list();
    expect(before.functions).toContain('cycle_an_outlet');
    expect(before.threads).toEqual([]);
    const { threadId } = await c.scripts.start('cycle_an_outlet', [5, 10]);
    const start = unit.device.stats.log.at(-1)!;
    expect(start).toMatchObject({ method: 'POST', path: '/restapi/script/start/', status: 200 });
    expect(unit.device.threads().map((t) => t.id)).toEqual([threadId]);
    expect((await c.scripts.list()).threads).toEqual([
      { id: threadId, label: expect.stringContaining('cycle_an_outlet') },
    ]);
    await c.scripts.stop([threadId]);
    expect(unit.device.threads()).toEqual([]);
    await c.scripts.start('flash_a_light');
    await c.scripts.start('flash_a_light');
    await c.scripts.stop('all');
    expect(unit.device.threads()).toEqual([]);
  });

  it('names the problem when a function does not exist or the user is not an admin', async () => {
    const unit = await emulator();
    const c = client(unit.url, { name: 'Bench A' });
    const unknown = await failure(c.scripts.start('no_such_function', [1]));
    expect(unknown.code).toBe('BAD_INPUT');
    expect(unknown.message).toContain('no_such_function(1)');
    unit.device.addUser({ name: 'bob', password: 'pw', outletAccess: access([1]) });
    const bob = client(unit.url, {
      name: 'Bench A',
      credentials: { kind: 'digest', user: 'bob', password: 'pw' },
    });
    const forbidden = await failure(bob.scripts.start('flash_a_light'));
    expect(forbidden.code).toBe('FORBIDDEN');
    expect(forbidden.message).toContain('Only administrators can use scripts on Bench A');
  });
});

describe('users, SSH, reboot and the tree', () => {
  it('creates, lists and deletes users by name', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.users.create({
      name: 'carol',
      password: 'pw1',
      isAdmin: false,
      isAllowed: true,
      outletAccess: [true, false, true],
    });
    await c.users.create({
      name: 'dave',
      password: 'pw2',
      isAdmin: true,
      isAllowed: false,
      outletAccess: [],
    });
    expect(unit.device.users().map((u) => u.name)).toEqual(['admin', 'carol', 'dave']);
    const carol = (await c.users.list()).find((u) => u.name === 'carol')!;
    expect(carol).toEqual({
      name: 'carol',
      isAdmin: false,
      isAllowed: true,
      outletAccess: [true, false, true, false, false, false, false, false],
    });
    expect(JSON.stringify(await c.users.list())).not.toContain('pw1');
    await c.users.delete('carol');
    expect(unit.device.users().map((u) => u.name)).toEqual(['admin', 'dave']);
    const posts = unit.device.stats.log.filter(
      (e) => e.path.startsWith('/restapi/auth/users/') && e.method !== 'GET',
    );
    expect(posts.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'POST /restapi/auth/users/ 201',
      'POST /restapi/auth/users/ 201',
      'DELETE /restapi/auth/users/1/ 204',
    ]);
    expect((await failure(c.users.delete('carol'))).code).toBe('BAD_INPUT');
    expect(
      (
        await failure(
          c.users.create({ name: 'dave', password: 'x', isAdmin: false, isAllowed: true, outletAccess: [] }),
        )
      ).code,
    ).toBe('BAD_INPUT');
  });

  it('reads and sets SSH', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    expect(await c.system.ssh()).toBe(false);
    await c.system.setSsh(true);
    expect(unit.device.config().sshEnabled).toBe(true);
    expect(await c.system.ssh()).toBe(true);
  });

  it('reboots on firmware 1.11.6.0 and newer', async () => {
    // Down until the test ends: the reboot cannot be over before a busy machine gets to look.
    const unit = await emulator({ firmware: '1.11.6.0', rebootSeconds: 600 });
    const c = client(unit.url);
    await c.system.reboot();
    await expect.poll(() => unit.device.rebooting, { timeout: 15_000 }).toBe(true);
  });

  it('refuses to reboot older firmware without sending anything', async () => {
    const unit = await emulator({ firmware: '1.11.5.9' });
    const c = client(unit.url, { name: 'Bench A' });
    await c.identity();
    unit.device.stats.reset();
    const error = await failure(c.system.reboot());
    expect(error.code).toBe('UNSUPPORTED_FIRMWARE');
    expect(error.detail).toMatchObject({ requiredFirmware: '1.11.6.0' });
    expect(error.message).toContain('1.11.6.0 or newer; Bench A runs 1.11.5.9');
    expect(unit.device.stats.requests).toBe(0);
  });

  it('reads the API tree with Range: dli-depth', async () => {
    const unit = allOff(await emulator());
    const c = client(unit.url);
    const root = await c.system.tree('', 1);
    expect(Object.keys(root.value as object)).toEqual(
      expect.arrayContaining(['relay', 'config', 'auth', 'script']),
    );
    const outlet = await c.system.tree('relay/outlets/0', 1);
    expect(outlet.value).toMatchObject({ name: 'Outlet 1', state: false });
    expect(unit.device.stats.log.at(-1)).toMatchObject({ status: 206 });
    const missing = await failure(c.system.tree('relay/nothing_here', 1));
    expect(missing.code).toBe('BAD_INPUT');
    expect(missing.message).toContain('/restapi/relay/nothing_here/');
  });
});
