/**
 * Text a controller chooses (its name, outlet and meter names, user names, script labels, its error
 * text) is neutralised as it arrives: a hostile or broken unit cannot put a terminal escape, a forged log
 * line or a text-direction override into anything Plugboard shows.
 */
import { describe, expect, it } from 'vitest';
import { meterReadings } from '../../src-main/dli/meters';
import { deviceExplanation } from '../../src-main/dli/http-errors';
import { client, emulator } from './helpers';

const HOSTILE = 'Router\u001b[2J\n[plugboard serve] forged\u202Etxt.exe\u0000';
const CLEAN = 'Router[2J [plugboard serve] forgedtxt.exe';

describe('text from the controller', () => {
  it('outlet names and the controller name arrive without control or bidi characters', async () => {
    const emu = await emulator();
    // A hostile unit: its own page takes anything (the emulator's device port ignores its input rules).
    emu.device.setConfig({ name: `Bench\u001b]0;pwned\u0007 A` });
    emu.device.setOutlet(2, { name: HOSTILE });
    const c = client(emu.url);
    const outlets = await c.outlets.list();
    expect(outlets[2]!.name).toBe(CLEAN);
    const { identity } = await c.describe();
    expect(identity.controllerName).toBe('Bench]0;pwned A');
  });

  it('meter names and ids arrive clean and bounded', () => {
    const [reading] = meterReadings({
      'buses.0.voltage\u001b[1m': { name: `=cmd\u202E${'x'.repeat(500)}`, value: 120, quantity: 'voltage' },
    });
    expect(reading!.key).toBe('buses.0.voltage[1m');
    expect(reading!.name.startsWith('=cmd')).toBe(true);
    expect(reading!.name).not.toMatch(/\u202E/);
    expect(reading!.name.length).toBeLessThanOrEqual(128);
  });

  it('an error text from the controller is cleaned before it is quoted', () => {
    const said = deviceExplanation({
      status: 409,
      headers: { get: () => null },
      body: JSON.stringify({ error: 'bad\u001b[31m', message: `line one\nline two\u202E` }),
    });
    expect(said).toEqual({ code: 'bad[31m', message: 'line one line two' });
  });
});
