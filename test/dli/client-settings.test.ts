/** Outlet settings (cycle delay, critical) and the relay's timing, written to the emulator. */
import { describe, expect, it } from 'vitest';
import { access, client, emulator, failure } from './helpers';

describe('outlet settings', () => {
  it("sets an outlet's cycle delay and critical flag, and null hands the delay back to the relay", async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.settings.configureOutlet(3, { cycleDelay: 10, critical: true });
    let third = (await c.outlets.list())[2]!;
    expect(third).toMatchObject({ cycleDelay: 10, critical: true });
    await c.settings.configureOutlet(3, { cycleDelay: null });
    third = (await c.outlets.list())[2]!;
    expect(third).toMatchObject({ cycleDelay: null, critical: true });
    await c.settings.configureOutlet(3, { critical: false });
    expect((await c.outlets.list())[2]).toMatchObject({ cycleDelay: null, critical: false });
  });

  it('refuses bad values with BAD_INPUT before sending anything', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.outlets.list();
    unit.device.stats.reset();
    for (const cycleDelay of [-1, 0, 2.5, 3601, Number.NaN]) {
      const error = await failure(c.settings.configureOutlet(1, { cycleDelay }));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toContain('whole number of seconds from 1 to 3600');
    }
    for (const sequenceDelay of [-1, 0.5, 61]) {
      const error = await failure(c.settings.setRelayTiming({ cycleDelay: 5, sequenceDelay }));
      expect(error.code).toBe('BAD_INPUT');
      expect(error.message).toContain('from 0 to 60');
    }
    expect((await failure(c.settings.configureOutlet(1, {}))).code).toBe('BAD_INPUT');
    expect((await failure(c.settings.setRelayTiming({}))).code).toBe('BAD_INPUT');
    expect(unit.device.stats.requests).toBe(0);
    expect((await c.outlets.list())[0]!.cycleDelay).toBeNull();
  });

  it('explains FORBIDDEN for a user who is not an administrator', async () => {
    const unit = await emulator();
    unit.device.addUser({ name: 'bob', password: 'pw', outletAccess: access([1, 2]) });
    const bob = client(unit.url, { credentials: { kind: 'digest', user: 'bob', password: 'pw' } });
    const error = await failure(bob.settings.configureOutlet(1, { critical: true }));
    expect(error.code).toBe('FORBIDDEN');
    expect(error.message).toContain('Only administrators can mark as critical outlet 1');
    expect(error.action).toBe('Log in as an administrator.');
    const timing = await failure(bob.settings.setRelayTiming({ sequenceDelay: 2 }));
    expect(timing.code).toBe('FORBIDDEN');
  });
});

describe('relay timing', () => {
  it('sets the relay cycle delay and sequence delay, each alone or both', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.settings.setRelayTiming({ cycleDelay: 5, sequenceDelay: 2 });
    expect(await c.system.relayTiming()).toEqual({ cycleDelay: 5, sequenceDelay: 2 });
    await c.settings.setRelayTiming({ sequenceDelay: 0 });
    expect(await c.system.relayTiming()).toEqual({ cycleDelay: 5, sequenceDelay: 0 });
    await c.settings.setRelayTiming({ cycleDelay: 3600 });
    expect(await c.system.relayTiming()).toEqual({ cycleDelay: 3600, sequenceDelay: 0 });
  });
});
