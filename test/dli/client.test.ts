/** Identity, describe and outlets against the emulator over real HTTP with real digest auth. */
import { describe, expect, it } from 'vitest';
import { access, allOff, client, emulator, failure } from './helpers';

describe('identity and describe', () => {
  it('describes a controller for "add controller" (RFC 2069 challenge, like real units)', async () => {
    const unit = await emulator({ outlets: 5, serial: 'LPC92712030336', model: 'LPC9', name: 'Bench A' });
    const c = client(unit.url);
    const description = await c.describe();
    expect(description.identity).toEqual({
      controllerName: 'Bench A',
      model: 'LPC9',
      serial: 'LPC92712030336',
      firmware: '1.12.14.0',
      relayFirmware: expect.any(String),
      hostname: unit.device.config().hostname,
    });
    expect(description.capabilities).toEqual({
      simultaneousSwitching: true,
      reboot: true,
      tokens: true,
      meters: true,
      isAdmin: true,
      outletCount: 5,
      outletAccess: [true, true, true, true, true],
    });
    expect(description.caller).toMatchObject({ name: 'admin', isAdmin: true });
    expect(description.outlets.map((o) => o.number)).toEqual([1, 2, 3, 4, 5]);
    expect(description.meters?.length).toBeGreaterThan(0);
    expect(description.fingerprint).toBeNull();
    expect(c.firmware).toBe('1.12.14.0');
  });

  it("reports a non-admin user's outlet access and no meters", async () => {
    const unit = await emulator({ meters: false, firmware: '1.10.15.0' });
    unit.device.addUser({ name: 'bob', password: 'pw', outletAccess: access([2, 3]) });
    const c = client(unit.url, { credentials: { kind: 'digest', user: 'bob', password: 'pw' } });
    const description = await c.describe();
    expect(description.capabilities).toMatchObject({
      isAdmin: false,
      meters: false,
      reboot: false,
      simultaneousSwitching: true,
    });
    expect(description.capabilities.outletAccess).toEqual([
      false,
      true,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    expect(description.meters).toBeNull();
  });

  it('works with RFC 2617 qop=auth too', async () => {
    const unit = await emulator({ qop: true });
    const c = client(unit.url);
    expect((await c.identity()).model).toBe(unit.device.model);
    for (let i = 0; i < 20; i++) await c.outlets.list();
    expect(unit.device.stats.unauthorized).toBe(1);
  });
});

describe('outlets', () => {
  it('reads every outlet in one request, with 1-based numbers', async () => {
    const unit = await emulator();
    unit.device.setOutlet(2, { name: 'Lab PSU', state: true });
    unit.device.lock(6);
    const c = client(unit.url);
    await c.outlets.list();
    unit.device.stats.reset();
    const outlets = await c.outlets.list();
    expect(unit.device.stats.requests).toBe(1);
    expect(unit.device.stats.log[0]).toMatchObject({ method: 'GET', path: '/restapi/relay/outlets/' });
    expect(outlets).toHaveLength(8);
    expect(outlets[2]).toMatchObject({ number: 3, name: 'Lab PSU', state: true, transientState: true });
    expect(outlets[6]).toMatchObject({ number: 7, locked: true });
  });

  it('switches one, several or all outlets in one request each, persistent or transient', async () => {
    const unit = allOff(await emulator());
    const c = client(unit.url);
    await c.outlets.list();
    unit.device.stats.reset();
    expect(await c.outlets.setState([3], true)).toEqual({ requested: [3], failed: [] });
    expect(await c.outlets.setState([1, 4, 7], true, { transient: true })).toEqual({
      requested: [1, 4, 7],
      failed: [],
    });
    expect(unit.device.stats.log.map((e) => `${e.method} ${e.path} ${e.status}`)).toEqual([
      'PUT /restapi/relay/outlets/2/state/ 204',
      'PUT /restapi/relay/outlets/=0,3,6/transient_state/ 207',
    ]);
    const after = unit.device.outlets();
    expect(after.map((o) => o.state)).toEqual([false, false, true, false, false, false, false, false]);
    expect(after.map((o) => o.transientState)).toEqual([true, false, true, true, false, false, true, false]);
    expect(await c.outlets.setState('all', false)).toEqual({
      requested: [1, 2, 3, 4, 5, 6, 7, 8],
      failed: [],
    });
    expect(unit.device.outlets().every((o) => !o.state && !o.transientState)).toBe(true);
  });

  it('reports locked and forbidden outlets one by one, and switches the rest', async () => {
    const unit = allOff(await emulator());
    unit.device.lock(1);
    unit.device.addUser({
      name: 'bob',
      password: 'pw',
      outletAccess: [true, true, true, false, false, false, false, false],
    });
    const bob = client(unit.url, {
      credentials: { kind: 'digest', user: 'bob', password: 'pw' },
      name: 'Bench A',
    });
    const result = await bob.outlets.setState([1, 2, 3, 4], true);
    expect(result.requested).toEqual([1, 2, 3, 4]);
    expect(result.failed.map((f) => [f.outlet, f.error.code])).toEqual([
      [2, 'LOCKED'],
      [4, 'FORBIDDEN'],
    ]);
    expect(result.failed[0]!.error.message).toContain('Outlet 2 on Bench A is locked');
    expect(result.failed[1]!.error.message).toContain('User "bob" may not switch outlet 4 on Bench A');
    expect(
      unit.device
        .outlets()
        .map((o) => o.state)
        .slice(0, 4),
    ).toEqual([true, false, true, false]);
    const single = await bob.outlets.setState([2], true);
    expect(single.failed[0]?.error.code).toBe('LOCKED');
  });

  it('refuses outlets the controller does not have, without a request', async () => {
    const unit = await emulator({ outlets: 4 });
    const c = client(unit.url);
    await c.outlets.list();
    unit.device.stats.reset();
    const error = await failure(c.outlets.setState([5], true));
    expect(error.code).toBe('BAD_INPUT');
    expect(error.message).toContain('it has outlets 1 to 4');
    expect(unit.device.stats.requests).toBe(0);
  });

  it('cycles an outlet that is on, and says so when it was off', async () => {
    const unit = allOff(await emulator());
    const c = client(unit.url);
    expect(await c.outlets.cycle(2)).toEqual({ cycled: false });
    unit.device.setOutlet(1, { state: true });
    expect(await c.outlets.cycle(2)).toEqual({ cycled: true });
    expect(unit.device.outlet(1).cycling).toBe(true);
    await unit.device.whenSettled(3000);
    expect(unit.device.outlet(1).physicalState).toBe(true);
    unit.device.lock(1);
    const error = await failure(c.outlets.cycle(2));
    expect(error.code).toBe('LOCKED');
    expect(error.message).toMatch(/Outlet 2 on .* is locked/);
  });

  it('switches several outlets simultaneously in one call, all or nothing', async () => {
    const unit = allOff(await emulator());
    unit.device.setOutlet(1, { state: true });
    const c = client(unit.url);
    await c.describe();
    unit.device.stats.reset();
    const result = await c.outlets.switch([
      { outlet: 1, on: true },
      { outlet: 2, on: false },
      { outlet: 8, on: true },
    ]);
    expect(result).toEqual({ requested: [1, 2, 8], failed: [], simultaneous: true });
    expect(unit.device.stats.log.map((e) => `${e.method} ${e.path}`)).toEqual([
      'POST /restapi/relay/set_outlet_transient_states/',
    ]);
    expect(unit.device.outlets().map((o) => o.transientState)).toEqual([
      true,
      false,
      false,
      false,
      false,
      false,
      false,
      true,
    ]);

    unit.device.lock(4);
    const error = await failure(
      c.outlets.switch([
        { outlet: 3, on: true },
        { outlet: 5, on: true },
      ]),
    );
    expect(error.code).toBe('LOCKED');
    expect(error.message).toContain('Nothing was switched');
    expect(error.message).toContain('outlet 5');
    expect(unit.device.outlet(2).transientState).toBe(false);
  });

  it('falls back to one matrix PUT per target value before firmware 1.10.11', async () => {
    const unit = allOff(await emulator({ firmware: '1.10.10.0' }));
    const c = client(unit.url);
    await c.describe();
    unit.device.lock(5);
    unit.device.stats.reset();
    const result = await c.outlets.switch([
      { outlet: 1, on: true },
      { outlet: 3, on: true },
      { outlet: 6, on: true },
      { outlet: 2, on: false },
    ]);
    expect(result.simultaneous).toBe(false);
    expect(result.failed.map((f) => [f.outlet, f.error.code])).toEqual([[6, 'LOCKED']]);
    expect(unit.device.stats.log.map((e) => `${e.method} ${e.path}`)).toEqual([
      'PUT /restapi/relay/outlets/=0,2,5/transient_state/',
      'PUT /restapi/relay/outlets/1/transient_state/',
    ]);
    expect(
      unit.device
        .outlets()
        .map((o) => o.transientState)
        .slice(0, 3),
    ).toEqual([true, false, true]);
  });

  it('switches with an access token that may switch outlets but not read the firmware', async () => {
    for (const [firmware, simultaneous] of [
      ['1.12.14.0', true],
      ['1.10.10.0', false],
    ] as const) {
      const unit = allOff(await emulator({ firmware }));
      const token = unit.device.issueToken('bot', [
        '/relay/outlets/all;/=state,transient_state/?access=modify',
      ]);
      const c = client(unit.url, { credentials: { kind: 'token', token } });
      const result = await c.outlets.switch([
        { outlet: 1, on: true },
        { outlet: 3, on: true },
      ]);
      expect(result, firmware).toEqual({ requested: [1, 3], failed: [], simultaneous });
      expect(
        unit.device
          .outlets()
          .map((o) => o.transientState)
          .slice(0, 4),
        firmware,
      ).toEqual([true, false, true, false]);
    }
  });

  it('renames an outlet, even to a name that looks like JSON', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.outlets.rename(4, 'true');
    await c.outlets.rename(3, 'Lab "PSU" 2');
    expect(unit.device.outlet(3).name).toBe('true');
    expect(unit.device.outlet(2).name).toBe('Lab "PSU" 2');
    expect((await failure(c.outlets.rename(3, ''))).code).toBe('BAD_INPUT');
  });

  it('says a refused rename is about renaming, not switching', async () => {
    const unit = await emulator();
    unit.device.addUser({ name: 'bob', password: 'pw', outletAccess: access([3]) });
    const bob = client(unit.url, {
      name: 'Bench A',
      credentials: { kind: 'digest', user: 'bob', password: 'pw' },
    });
    const error = await failure(bob.outlets.rename(3, 'Scope'));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toContain('User "bob" may not rename outlet 3 on Bench A');
    expect(error.message).not.toContain('switch');
    expect(unit.device.outlet(2).name).toBe('Outlet 3');
  });
});
