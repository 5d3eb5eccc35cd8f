/**
 * `plugboard reservations | reserve | release`, whose own Core shares the config folder with another Core
 * (the window's, acting for "alice"): a reservation taken there refuses the command line (exit 5, naming
 * the holder), and one taken on the command line refuses alice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Reservation, Result } from '../../src-preload/contract';
import { openConfStore } from '../../src-main/core/store';
import { dispatch, openLabRecords } from '../../src-main/core/index';
import { MemorySecretStore } from '../../src-main/secrets';
import { addController, cleanUp, emulator, newCore } from '../core/harness';
import { storedActivity } from '../core/stored-activity';
import { cleanEnv, cli, type CliResult } from './run-cli';

afterEach(cleanUp);
const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-cli-reservations-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The stderr lines that matter (not the no-keychain warning of a machine without a Secret Service). */
const errors = (r: CliResult) =>
  r.stderr
    .split('\n')
    .filter((line) => line.trim() && !line.includes('keychain') && !/^npm warn/i.test(line));

describe('plugboard reservations, reserve, release', () => {
  it('are shared with the window: refused both ways, exit 5 naming the holder, breaks logged', async () => {
    const dir = path.join(scratch, 'shared');
    const emu = await emulator({ initialStates: Array(8).fill(false) });
    // The window's Core keeps its log in the folder's lab store, as the desktop app does.
    const window = newCore({
      store: openConfStore(dir),
      dataDir: dir,
      records: await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {}),
      secrets: new MemorySecretStore(),
    });
    const { id } = await addController(window, emu, { name: 'Bench A' });
    const alice = window.core.handlersAs({ door: 'window', who: 'alice', role: 'operator' });
    const asAlice = (name: string, input: unknown) =>
      dispatch(alice, name, input, () => undefined) as Promise<Result<unknown>>;
    const held = (await asAlice('reservations/take', {
      target: { kind: 'outlet', controllerId: id, outlet: 3 },
      reason: 'flashing firmware',
      durationMs: 3_600_000,
    })) as Result<Reservation>;
    if (!held.ok) throw new Error(held.error.message);
    const env = cleanEnv({ PLUGBOARD_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    const run = (...args: string[]) => cli(args, { env });

    const listed = await run('reservations', '--json');
    expect(listed.code).toBe(0);
    expect(listed.json()).toEqual([held.value]);
    const table = await run('reservations');
    expect(table.stdout).toMatch(
      new RegExp(`${held.value.id}\\s+Bench A:3\\s+alice\\s+[0-9: -]+\\s+flashing firmware`),
    );

    const refused = await run('reserve', 'Bench A', '--for', '1h', '--reason', 'whole bench');
    expect(refused.code).toBe(5);
    expect(errors(refused)).toEqual([
      expect.stringMatching(
        /^plugboard: Outlet 3 on Bench A is reserved by alice until [0-9: -]+: flashing firmware\. Ask alice to release it.*\[RESERVED\]$/,
      ),
    ]);

    const mine = await run('reserve', 'bench a:4', '--for', '1h30m', '--reason', 'bisecting', '--json');
    expect(errors(mine)).toEqual([]);
    expect(mine.code).toBe(0);
    const taken = mine.json<Reservation>();
    expect(taken).toMatchObject({ target: { kind: 'outlet', controllerId: id, outlet: 4 }, door: 'cli' });
    expect(taken.expiresAt - taken.createdAt).toBe(90 * 60_000);
    // The window's Core refuses alice on outlet 4 now.
    const blocked = await asAlice('outlets/set', { controllerId: id, outlets: [4], on: true });
    expect(blocked).toMatchObject({
      ok: false,
      error: { code: 'RESERVED', detail: { holder: taken.holder } },
    });
    expect(emu.device.outlets()[3]!.state).toBe(false);

    const notMine = await run('release', held.value.id);
    expect(notMine.code).toBe(5);
    expect(errors(notMine).join('\n')).toContain('Only alice can release it.');
    const noReason = await run('release', held.value.id, '--break');
    expect(noReason.code).toBe(2);
    const broken = await run('release', held.value.id, '--break', '--reason', 'alice is on holiday');
    expect(errors(broken)).toEqual([]);
    expect(broken.stdout.trim()).toBe(`Broke reservation ${held.value.id}.`);
    const released = await run('release', taken.id);
    expect(released.code).toBe(0);
    expect(await window.ok('reservations/list', {})).toEqual([]);

    // The command line's Core wrote its activity to the shared lab store.
    const log = storedActivity(dir);
    expect(
      log
        .filter((e) => e.source === 'cli')
        .map((e) => [e.outlet, e.action.replace(/until [0-9: -]+:/, 'until T:')]),
    ).toEqual([
      [4, 'reserved until T: bisecting.'],
      [3, 'broke the reservation of alice: alice is on holiday.'],
      [4, 'reservation released'],
    ]);
  });

  it('names what is wrong in the command line (exit 2)', async () => {
    const dir = path.join(scratch, 'usage');
    const env = cleanEnv({ PLUGBOARD_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    const badDuration = await cli(['reserve', 'Bench A:3', '--for', '5 weeks', '--reason', 'x'], { env });
    expect(badDuration.code).toBe(2);
    expect(errors(badDuration).join('\n')).toContain('is not a duration: write it like 30m, 2h, 1h30m or 3d');
    const tooShort = await cli(['reserve', 'Bench A:3', '--for', '10s', '--reason', 'x'], { env });
    expect(tooShort.code).toBe(2);
    const unknown = await cli(['reserve', 'Nowhere:3', '--for', '1h', '--reason', 'x'], { env });
    expect(unknown.code).toBe(2);
    expect(errors(unknown).join('\n')).toContain('"Nowhere:3" is neither a saved controller');
    const stray = await cli(['release', 'r-123456', '--reason', 'x'], { env });
    expect(stray.code).toBe(2);
  });
});
