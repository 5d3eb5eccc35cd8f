/**
 * `controllers import FILE.csv` with the real OS keychain (keychain-session.ts): passwords from
 * --password-file or standard input, never the command line or the file; a result per row; a password
 * column refused.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';
import { inKeychainSession } from './keychain-session';
import { PROFILES } from './cli-fixtures';

const running: RunningEmulator[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'plugboard-cli-import-'));
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function file(name: string, text: string): string {
  const path = join(scratch, name);
  writeFileSync(path, text);
  return path;
}

// Not rerun by the real-unit project (only fast files are): each profile here.
describe.each(PROFILES)('%s', (_, profile) => {
  it('imports a CSV file with one password per user and shows a result per row', async () => {
    const password = 'import-pw-4711';
    const units = await Promise.all(
      [10, 11, 12, 13].map((i) =>
        startEmulator({ host: `127.0.0.${i}`, password, sequenceDelay: 0, ...profile }),
      ),
    );
    running.push(...units);
    units[2]!.device.addUser({ name: 'ops', password: 'ops-pw-99', isAdmin: true });
    const host = (u: RunningEmulator) => new URL(u.url).host;
    const csv = file(
      'lab.csv',
      [
        'name,address,user,tags',
        `Rack A,${host(units[0]!)},,rack 7;ci`,
        `Rack B,${host(units[1]!)},,rack 7`,
        `Rack C,${host(units[2]!)},ops,`,
        'Broken,ftp://10.0.0.1,,',
      ].join('\n'),
    );
    const later = file('later.csv', `address\n${host(units[3]!)}\n`);
    const secretColumn = file('secret.csv', 'name,address,password\nX,127.0.0.50,hunter2\n');
    const passwords = file('passwords.txt', `admin:${password}\nops:ops-pw-99\n`);

    const { results: r, configDir } = await inKeychainSession([
      { name: 'dry', args: ['controllers', 'import', csv, '--dry-run', '--json'] },
      { name: 'argv', args: ['--password', password, 'controllers', 'import', csv] },
      { name: 'import', args: ['controllers', 'import', csv, '--password-file', passwords] },
      { name: 'again', args: ['controllers', 'import', csv, '--password-file', passwords, '--json'] },
      { name: 'stdin', args: ['controllers', 'import', later], stdin: password },
      { name: 'secret', args: ['controllers', 'import', secretColumn, '--password-file', passwords] },
      { name: 'list', args: ['controllers', 'list', '--json'] },
      { name: 'outlets', args: ['--controller', 'Rack C', 'outlets', '--json'] },
    ]);

    expect(r.dry!.code, r.dry!.stderr).toBe(1);
    expect(JSON.parse(r.dry!.stdout).map((row: { status: string }) => row.status)).toEqual([
      'ready',
      'ready',
      'ready',
      'invalid',
    ]);
    expect(r.argv!.code).toBe(2);
    expect(r.argv!.stderr).toContain('never takes a password on the command line');

    expect(r.import!.code, r.import!.stderr).toBe(8);
    expect(r.import!.stdout).toContain('added as "Rack A"');
    expect(r.import!.stdout).toContain('added as "Rack C"');
    expect(r.import!.stdout).toMatch(/Broken .*must start with http:\/\/ or https:\/\//);
    expect(r.import!.stdout).toContain('3 of 4 controllers added.');

    const again = JSON.parse(r.again!.stdout) as { name: string; status: string; result: string }[];
    expect(again.map((row) => row.status)).toEqual(['invalid', 'invalid', 'invalid', 'invalid']);
    expect(again[0]!.result).toContain('already saved as "Rack A"');

    expect(r.stdin!.code, r.stdin!.stderr).toBe(0);
    expect(r.secret!.code).toBe(1);
    expect(r.secret!.stderr).toContain('The file has a "password" column');
    expect(r.secret!.stderr).not.toContain('hunter2');

    const list = JSON.parse(r.list!.stdout) as { name: string; user: string; has_secret: boolean }[];
    expect(list.map((c) => [c.name, c.user, c.has_secret])).toEqual([
      ['Rack A', 'admin', true],
      ['Rack B', 'admin', true],
      ['Rack C', 'ops', true],
      ['DLI Controller', 'admin', true],
    ]);
    // The saved secret works from the keychain, and no password is in the settings file.
    expect(r.outlets!.code, r.outlets!.stderr).toBe(0);
    const settings = readFileSync(join(configDir, 'config.json'), 'utf8');
    expect(settings).not.toContain(password);
    expect(settings).not.toContain('ops-pw-99');
  });
});
