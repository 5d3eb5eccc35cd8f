/**
 * `plugboard autoping …` against the emulator's simulated AutoPing. @real-unit: the profile has AutoPing
 * on by default, and its own answers.
 */
import { describe, expect, it } from 'vitest';
import { cli, errorLines } from './run-cli';
import { login, emulator } from './cli-fixtures';

describe('plugboard autoping', () => {
  it('adds, lists, edits, disables, enables and deletes items with 1-based outlets', async () => {
    const e = await emulator({ autoping: true });
    const added = await cli([
      ...login(e),
      'autoping',
      'add',
      '10.0.0.5,10.0.0.6',
      '--outlets',
      '1,2',
      '--pings-before-enabling',
      '3',
      '--resumption-trial',
    ]);
    expect(errorLines(added)).toEqual([]);
    expect(added.code).toBe(0);
    expect(added.stdout).toContain('Added AutoPing item 1');
    expect(e.device.autoping().items[0]).toMatchObject({
      addresses: ['10.0.0.5', '10.0.0.6'],
      outlets: [0, 1],
      pings_before_enabling: 3,
      resumption_trial: true,
      enabled: true,
    });

    const listed = await cli([...login(e), 'autoping']);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toMatch(/1\s+10\.0\.0\.5, 10\.0\.0\.6\s+1,2\s+yes\s+3\s+yes\s+cycle\s+waiting/);

    const edited = await cli([
      ...login(e),
      'autoping',
      'edit',
      '1',
      '--outlets',
      '4',
      '--no-resumption-trial',
    ]);
    expect(edited.code).toBe(0);
    expect(e.device.autoping().items[0]).toMatchObject({
      addresses: ['10.0.0.5', '10.0.0.6'],
      outlets: [3],
      resumption_trial: false,
      pings_before_enabling: 3,
    });

    expect((await cli([...login(e), 'autoping', 'disable', '1'])).code).toBe(0);
    expect(e.device.autoping().items[0]).toMatchObject({ enabled: false, status: 'disabled' });
    const enabled = await cli([...login(e), 'autoping', 'enable', '1', '--json']);
    expect(enabled.json()).toMatchObject({ number: 1, enabled: true, outlets: [4], status: 'waiting' });

    const deleted = await cli([...login(e), 'autoping', 'delete', '1']);
    expect(deleted.code).toBe(0);
    expect(e.device.autoping().items).toEqual([]);
  });

  it('names what is wrong: usage mistakes exit 2, a missing item or a unit without AutoPing exit 1', async () => {
    const e = await emulator({ autoping: true });
    const noOutlets = await cli([...login(e), 'autoping', 'add', '10.0.0.5']);
    expect(noOutlets.code).toBe(2);
    expect(errorLines(noOutlets).join('\n')).toContain('--outlets');
    const outlet9 = await cli([...login(e), 'autoping', 'add', '10.0.0.5', '--outlets', '9']);
    expect(outlet9.code).toBe(1);
    expect(errorLines(outlet9).join('\n')).toContain('Outlet 9 does not exist');
    const missing = await cli([...login(e), 'autoping', 'delete', '4']);
    expect(missing.code).toBe(1);
    expect(errorLines(missing).join('\n')).toContain('no AutoPing item 4');
    expect(e.device.autoping().items).toEqual([]);

    // Explicitly without: the real-unit profile (node-real-unit project) turns AutoPing on.
    const plain = await emulator({ autoping: false });
    const none = await cli([...login(plain), 'autoping']);
    expect(none.code).toBe(1);
    expect(errorLines(none).join('\n')).toContain('has no AutoPing');
  });
});
