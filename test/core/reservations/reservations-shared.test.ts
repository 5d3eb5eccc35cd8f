import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { Reservation } from '../../../src-preload/contract';
import { openConfStore } from '../../../src-main/core/saved/conf-store';
import { MemorySecretStore } from '../../../src-main/secrets';
import { addController, cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);
const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-reservations-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const HOUR = 3_600_000;

/** A Core over config.json in `dir` (as the app, the web shell, serve and the CLI open it), acting for `user`. */
function coreOn(dir: string, user: string, secrets: MemorySecretStore) {
  return newCore({ store: openConfStore(dir), dataDir: dir, secrets, user });
}

describe('reservations in the shared config folder', () => {
  it('a reservation taken in one Core refuses another Core on the same config, which hears of changes', async () => {
    const dir = path.join(scratch, 'two-cores');
    const secrets = new MemorySecretStore();
    const emu = await emulator({ initialStates: Array(8).fill(false) });
    const window = coreOn(dir, 'alice', secrets);
    const { id } = await addController(window, emu, { name: 'Bench A' });
    const cli = coreOn(dir, 'bob', secrets);
    await cli.core.ready;

    const taken = await window.ok<Reservation>('reservations/take', {
      target: { kind: 'outlet', controllerId: id, outlet: 3 },
      reason: 'flashing firmware',
      durationMs: HOUR,
    });
    expect(await cli.ok('reservations/list', {})).toEqual([taken]);
    const refused = await cli.call('outlets/cycle', { controllerId: id, outlet: 3 });
    expect(refused).toMatchObject({ ok: false, error: { code: 'RESERVED', detail: { holder: 'alice' } } });
    expect(emu.device.stats.log.filter((e) => e.method !== 'GET')).toEqual([]);
    // The other Core hears of it through the file (watch), and of its end.
    await expect.poll(() => cli.all('reservations/changed').at(-1), { timeout: 10_000 }).toEqual([taken]);
    await window.ok('reservations/release', { id: taken.id });
    await expect.poll(() => cli.all('reservations/changed').at(-1), { timeout: 10_000 }).toEqual([]);
    await cli.ok('outlets/set', { controllerId: id, outlets: [3], on: true });
  });

  it('a reservation survives a restart of the Core', async () => {
    const dir = path.join(scratch, 'restart');
    const secrets = new MemorySecretStore();
    const emu = await emulator({ initialStates: Array(8).fill(false) });
    const first = coreOn(dir, 'alice', secrets);
    const { id } = await addController(first, emu, { name: 'Bench A' });
    const taken = await first.ok<Reservation>('reservations/take', {
      target: { kind: 'controller', controllerId: id },
      reason: 'overnight soak',
      durationMs: 12 * HOUR,
    });
    await first.core.dispose();

    const again = coreOn(dir, 'bob', secrets);
    await again.core.ready;
    expect(await again.ok('reservations/list', {})).toEqual([taken]);
    const refused = await again.call('outlets/set', { controllerId: id, outlets: 'all', on: true });
    expect(refused).toMatchObject({ ok: false, error: { code: 'RESERVED' } });
    if (!refused.ok) expect(refused.error.message).toContain('reserved by alice until');
  });
});
