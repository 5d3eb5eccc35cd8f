/**
 * The `plugboard` command against the emulator: reading and switching, output shapes. @real-unit: the
 * meters and tree answers follow the unit's profile.
 */
import { describe, expect, it } from 'vitest';
import { cli, errorLines } from './run-cli';
import { emulator, expectNoPassword, login } from './cli-fixtures';

describe('reading', () => {
  it('info --json prints exactly model, serial, firmware, relay_firmware', async () => {
    const e = await emulator({ model: 'LPC9', serial: 'LPC92712030336' });
    const result = await cli([...login(e), 'info', '--json']);
    expect(result.code).toBe(0);
    expect(result.json()).toEqual({
      model: 'LPC9',
      serial: 'LPC92712030336',
      firmware: '1.12.14.0',
      relay_firmware: expect.any(String),
    });
    expectNoPassword(result.stdout, result.stderr);
  });

  it('outlets: --json shape and an aligned table without colours when not a TTY', async () => {
    const e = await emulator({ outlets: 4 });
    e.device.setOutlet(1, { name: 'Lab PSU', state: true });
    e.device.lock(3);
    const json = await cli([...login(e), '--json', 'outlets']);
    expect(json.code).toBe(0);
    expect(json.json()).toEqual([
      {
        number: 1,
        name: 'Outlet 1',
        state: false,
        transient_state: false,
        physical_state: false,
        locked: false,
      },
      { number: 2, name: 'Lab PSU', state: true, transient_state: true, physical_state: true, locked: false },
      {
        number: 3,
        name: 'Outlet 3',
        state: false,
        transient_state: false,
        physical_state: false,
        locked: false,
      },
      {
        number: 4,
        name: 'Outlet 4',
        state: false,
        transient_state: false,
        physical_state: false,
        locked: true,
      },
    ]);
    const table = await cli([...login(e), 'outlets']);
    expect(table.code).toBe(0);
    expect(table.stdout).not.toContain('\u001b[');
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^#\s+NAME\s+STATE\s+TRANSIENT\s+PHYSICAL\s+LOCKED$/);
    expect(lines[2]).toMatch(/^2\s+Lab PSU\s+on\s+on\s+on$/);
    expect(lines[4]).toMatch(/locked$/);
    const column = lines[0]!.indexOf('STATE');
    expect(lines.slice(1).every((line) => line.indexOf('o', column) === column)).toBe(true);
  });

  it('meters: --json shape, °F by the controller formula, and a clear "no meters"', async () => {
    const e = await emulator();
    // The object-model map of a real unit names it `cpu_temperature` and keeps its other fields.
    const objectModel = e.device.behaviours.meterMap === 'object-model';
    const key = objectModel ? 'cpu_temperature' : 'environment.temperature';
    e.device.setMeter(key, 300);
    const result = await cli([...login(e), 'meters', '--fahrenheit', '--json']);
    expect(result.code).toBe(0);
    const rows = result.json<{ key: string; name: string; value: number | null; unit: string }[]>();
    expect(Object.keys(rows[0]!).sort()).toEqual(
      objectModel ? ['fields', 'key', 'name', 'unit', 'value'] : ['key', 'name', 'unit', 'value'],
    );
    const temperature = rows.find((r) => r.key === key)!;
    expect(temperature.unit).toBe('°F');
    expect(temperature.value).toBeCloseTo((9 / 5) * (300 - 273.16) + 32, 9);
    const bare = await emulator({ meters: false });
    const none = await cli([...login(bare), 'meters']);
    expect(none.code).toBe(0);
    expect(none.stdout).toContain('has no meters');
    expect((await cli([...login(bare), 'meters', '--json'])).json()).toEqual([]);
  });

  it('scripts and users --json shapes', async () => {
    const e = await emulator();
    e.device.addUser({
      name: 'bob',
      password: 'x',
      outletAccess: [true, false, true, false, false, false, false, false],
    });
    const scripts = await cli([...login(e), 'scripts', '--json']);
    expect(scripts.json()).toEqual({ functions: expect.arrayContaining(['cycle_an_outlet']), threads: [] });
    const users = await cli([...login(e), 'users', '--json']);
    expect(users.json()).toEqual([
      { name: 'admin', is_admin: true, is_allowed: true, outlet_access: [1, 2, 3, 4, 5, 6, 7, 8] },
      { name: 'bob', is_admin: false, is_allowed: true, outlet_access: [1, 3] },
    ]);
  });

  it('tree with a path and --depth', async () => {
    const e = await emulator();
    const result = await cli([...login(e), 'tree', 'relay/outlets/2', '--depth', '1']);
    expect(result.code).toBe(0);
    // A real unit answers `$ref` leaves at the depth limit (made absolute by the client: dli/tree-refs.ts).
    const leaf = (name: string, value: unknown) =>
      e.device.behaviours.depthRefs === 'relative' ? { $ref: `/restapi/relay/outlets/2/${name}/` } : value;
    expect(result.json()).toMatchObject({ name: leaf('name', 'Outlet 3'), state: leaf('state', false) });
  });
});

describe('switching', () => {
  it('on/off by number, list, all and name; --transient; JSON result', async () => {
    const e = await emulator();
    e.device.setOutlet(5, { name: 'Lamp' });
    expect((await cli([...login(e), 'on', '3'])).code).toBe(0);
    expect((await cli([...login(e), 'on', '1,4,7', '--transient'])).code).toBe(0);
    const byName = await cli([...login(e), '--json', 'on', 'lamp']);
    expect(byName.json()).toEqual([
      expect.objectContaining({ action: 'on', requested: [6], failed: [], error: null }),
    ]);
    const states = e.device.outlets();
    expect(states.map((o) => o.state)).toEqual([false, false, true, false, false, true, false, false]);
    expect(states.map((o) => o.transientState)).toEqual([true, false, true, true, false, true, true, false]);
    const off = await cli([...login(e), 'off', 'all']);
    expect(off.code).toBe(0);
    expect(off.stdout).toContain('Switched outlets 1, 2, 3, 4, 5, 6, 7, 8 off');
    expect(e.device.outlets().every((o) => !o.transientState)).toBe(true);
  });

  it('a locked outlet: the others switch, one line on stderr per refusal, exit 8 (partial)', async () => {
    const e = await emulator();
    e.device.lock(1);
    const result = await cli([...login(e), 'on', '1,2,3']);
    expect(result.code).toBe(8);
    expect(result.stdout).toContain('Switched outlets 1, 3 on');
    expect(errorLines(result)).toEqual([expect.stringMatching(/Outlet 2 on .* is locked.*\[LOCKED\]$/)]);
    expect(
      e.device
        .outlets()
        .map((o) => o.state)
        .slice(0, 3),
    ).toEqual([true, false, true]);
  });

  it('cycle and switch (simultaneous)', async () => {
    const e = await emulator();
    e.device.setOutlet(1, { state: true });
    const cycled = await cli([...login(e), 'cycle', '2', '--json']);
    expect(cycled.json()).toEqual([
      expect.objectContaining({ action: 'cycle', requested: [2], failed: [], error: null }),
    ]);
    const switched = await cli([...login(e), '--json', 'switch', '1=on', '5=on', '2=off']);
    expect(switched.code).toBe(0);
    expect(switched.json()).toEqual({ requested: [1, 2, 5], failed: [] });
    expect(e.device.outlet(0).transientState).toBe(true);
    expect(e.device.outlet(4).transientState).toBe(true);
    expect((await cli([...login(e), 'switch', '1=maybe'])).code).toBe(2);
  });
});
