/**
 * Outlet settings (cycle delay, critical) and the relay's timing through the contract, against the emulator.
 *
 * @real-unit: rerun against the emulator's real-unit profile for the unit's outlet and relay settings.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { addController, addedAsNonAdmin, cleanUp, emulator, newCore, until } from '../harness';

afterEach(cleanUp);

describe('outlet settings', () => {
  it("changes an outlet's cycle delay and critical flag; the state and the activity log show it", async () => {
    const emu = await emulator();
    const h = newCore();
    const { id } = await addController(h, emu);
    await h.ok('outlets/configure', { controllerId: id, outlet: 3, cycleDelay: 10, critical: true });
    expect(emu.device.outlet(2)).toMatchObject({ cycleDelay: 10, critical: true });
    expect(h.state(id)!.outlets[2]).toMatchObject({ cycleDelay: 10, critical: true });
    expect(h.activity().at(-1)).toMatchObject({
      outlet: 3,
      action: 'cycle delay set to 10 s, marked critical',
      result: 'ok',
    });
    await h.ok('outlets/configure', { controllerId: id, outlet: 3, cycleDelay: null });
    expect(emu.device.outlet(2)).toMatchObject({ cycleDelay: null, critical: true });
    expect(h.state(id)!.outlets[2]).toMatchObject({ cycleDelay: null, critical: true });
    expect(h.activity().at(-1)!.action).toBe('cycle delay set to the relay default');
    // A later poll reads the same values back from the controller.
    await h.ok('controllers/refresh', { id });
    await until(h, id, (s) => s.outlets[2]!.critical && s.outlets[2]!.cycleDelay === null);
  });

  it('refuses bad values before anything reaches the controller', async () => {
    const emu = await emulator();
    const h = newCore();
    const { id } = await addController(h, emu);
    for (const cycleDelay of [-1, 0, 1.5, 3601]) {
      const result = await h.call('outlets/configure', { controllerId: id, outlet: 1, cycleDelay });
      expect(result).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    }
    const empty = await h.call('outlets/configure', { controllerId: id, outlet: 1 });
    expect(empty).toMatchObject({ ok: false, error: { code: 'BAD_INPUT', message: /Nothing to change/ } });
    const timing = await h.call('system/setRelayTiming', { controllerId: id, sequenceDelay: 61 });
    expect(timing).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    expect(emu.device.outlet(0).cycleDelay).toBeNull();
  });
});

describe('relay timing', () => {
  it('changes the relay cycle and sequence delay; the state reads them back', async () => {
    const emu = await emulator();
    const h = newCore();
    const { id } = await addController(h, emu);
    await until(h, id, (s) => s.relayTiming.cycleDelay === 0.3);
    await h.ok('system/setRelayTiming', { controllerId: id, cycleDelay: 5, sequenceDelay: 2 });
    expect(h.state(id)!.relayTiming).toEqual({ cycleDelay: 5, sequenceDelay: 2 });
    expect(h.activity().at(-1)).toMatchObject({
      outlet: null,
      action: 'set the relay cycle delay 5 s and sequence delay 2 s',
      result: 'ok',
    });
    await h.ok('system/setRelayTiming', { controllerId: id, sequenceDelay: 0 });
    expect(h.state(id)!.relayTiming).toEqual({ cycleDelay: 5, sequenceDelay: 0 });
  });
});

describe('as a user who is not an administrator', () => {
  it('gets FORBIDDEN with what to do, recorded in the activity log; nothing changes', async () => {
    const { emu, h, id } = await addedAsNonAdmin();
    const critical = await h.call('outlets/configure', { controllerId: id, outlet: 1, critical: true });
    expect(critical).toMatchObject({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: expect.stringMatching(/Only administrators can mark as critical outlet 1/),
        action: 'Log in as an administrator.',
      },
    });
    expect(h.activity().at(-1)).toMatchObject({ outlet: 1, result: 'error', action: 'marked critical' });
    const timing = await h.call('system/setRelayTiming', { controllerId: id, cycleDelay: 9 });
    expect(timing).toMatchObject({ ok: false, error: { code: 'FORBIDDEN' } });
    expect(emu.device.outlet(0).critical).toBe(false);
  });
});
