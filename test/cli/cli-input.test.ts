/**
 * What the command line does with what was typed: usage errors found before anything is sent exit with 2
 * (and nothing reaches the address), an outlet beyond the unit's count is exit 1 naming the count, an
 * error echoes at most a short excerpt, and --password warns that the process list shows it. @real-unit:
 * what the unit says is said by the profile's unit.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD, login, emulator } from './cli-fixtures';
import { PASSWORD_WARNING, cleanEnv, cli, errorLines, type CliResult } from './run-cli';

/** A raw listener that counts every request: a usage error must leave it at 0. */
let listener: Server;
let listenerUrl = '';
let received = 0;
const configDir = mkdtempSync(join(tmpdir(), 'plugboard-cli-input-'));
const env = cleanEnv({ PLUGBOARD_CONFIG_DIR: configDir });
beforeAll(async () => {
  listener = createServer((_req, res) => {
    received++;
    res.writeHead(401, { 'www-authenticate': 'Digest realm="x", nonce="n", qop="auth"' }).end();
  });
  await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
  listenerUrl = `http://127.0.0.1:${(listener.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => listener.close(() => resolve()));
  rmSync(configDir, { recursive: true, force: true });
});

/** Run with the password on standard input (no --password warning in the way). */
const run = (args: string[]): Promise<CliResult> =>
  cli(['--user', 'admin', '--password-stdin', ...args], { env, stdin: `${PASSWORD}\n` });

describe('usage errors exit with 2 before anything is sent', () => {
  it('refuses addresses that are not http(s), and credentials inside --url, without echoing them', async () => {
    const cases = [
      ['--url', 'file:///etc/passwd', 'outlets'],
      ['--url', 'javascript:alert(1)', 'outlets'],
      ['--url', `ftp://${new URL(listenerUrl).host}/`, 'outlets'],
      ['--url', listenerUrl.replace('//', '//admin:Inline-Secret-31@'), 'outlets'],
      ['--url', 'file:///tmp/x', 'controllers', 'add', 'Bench'],
    ];
    // Run together, as separate commands would be.
    const results = await Promise.all(cases.map(run));
    for (const [i, args] of cases.entries()) {
      const result = results[i]!;
      expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(2);
      expect(errorLines(result), args.join(' ')).toEqual([expect.stringMatching(/^plugboard: --url /)]);
      expect(result.stderr).not.toContain('Inline-Secret-31');
    }
    expect(errorLines(await run(cases[3]!))[0]).toMatch(/must not contain a user name or password/);
    expect(received).toBe(0);
  });

  it('refuses outlet 0, negative, fractional and empty list items', async () => {
    const cases: [string[], RegExp][] = [
      [['on', '0'], /numbered from 1/],
      [['on', '-1'], /"-1" is not an outlet number/],
      [['off', '1.5'], /"1\.5" is not an outlet number/],
      [['on', '1,,2'], /"1,,2" has an empty item between commas/],
      [['on', '3,'], /empty item/],
      [['cycle', '-3'], /"-3" is not an outlet number/],
      [['switch', '0=on'], /numbered from 1/],
    ];
    const results = await Promise.all(cases.map(([command]) => run(['--url', listenerUrl, ...command])));
    for (const [i, [command, message]] of cases.entries()) {
      const result = results[i]!;
      expect(result.code, `${command.join(' ')}: ${result.stderr}`).toBe(2);
      expect(errorLines(result)).toEqual([expect.stringMatching(message)]);
    }
    expect(received).toBe(0);
  });

  it('refuses a tree path with ? or #, and an access token with spaces, without echoing the token', async () => {
    const [tree, token, empty] = await Promise.all([
      run(['--url', listenerUrl, 'tree', 'a?b']),
      cli(['--url', listenerUrl, '--token', 'Tok 3n-Secret', 'outlets'], { env }),
      cli(['--url', listenerUrl, '--token', '', 'outlets'], { env }),
    ]);
    expect(tree.code, tree.stderr).toBe(2);
    expect(errorLines(tree)).toEqual([expect.stringMatching(/A tree path may not contain \? or #/)]);
    for (const result of [token, empty]) {
      expect(result.code, result.stderr).toBe(2);
      expect(errorLines(result)).toEqual([expect.stringMatching(/--token is empty or contains spaces/)]);
    }
    expect(token.stderr).not.toContain('3n-Secret');
    expect(received).toBe(0);
  });
});

describe('what the unit says', () => {
  it('an outlet beyond the unit’s count is found after asking: exit 1, naming the count', async () => {
    const e = await emulator({ outlets: 8 });
    const result = await run(['--url', e.url, 'on', '2,9']);
    expect(result.code, result.stderr).toBe(1);
    expect(errorLines(result)).toEqual([expect.stringMatching(/Outlet 9 .*it has outlets 1 to 8/)]);
    expect(e.device.outlet(1).state).toBe(false);
  });

  it('a unit that answers with no outlets is named as such, never "outlets 1 to 0"', async () => {
    const empty = createServer((req, res) => {
      if (req.url?.startsWith('/restapi/relay/outlets/'))
        res.writeHead(200, { 'Content-Type': 'application/json' }).end('[]');
      else res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => empty.listen(0, '127.0.0.1', resolve));
    try {
      const url = `http://127.0.0.1:${(empty.address() as AddressInfo).port}`;
      const result = await run(['--url', url, 'on', '3']);
      expect(result.code, result.stderr).toBe(1);
      expect(errorLines(result)).toEqual([
        expect.stringMatching(/reported no outlets, so there is no outlet 3 to switch/),
      ]);
      expect(result.stderr).not.toContain('1 to 0');
    } finally {
      await new Promise<void>((resolve) => empty.close(() => resolve()));
    }
  });
});

describe('echoes and warnings', () => {
  it('an error shows at most 40 characters of anything typed', async () => {
    const e = await emulator();
    const long = 'q'.repeat(500);
    const cases = [
      [long],
      ['--url', e.url, 'on', long],
      ['--url', e.url, 'on', `1,${long}`],
      ['--url', e.url, 'switch', long],
      ['--url', `ftp://${long}`, 'outlets'],
      ['--controller', long, 'outlets'],
    ];
    const results = await Promise.all(cases.map(run));
    for (const [i, args] of cases.entries()) {
      const result = results[i]!;
      expect(result.code, `${args.join(' ').slice(0, 80)}: ${result.stderr.slice(0, 200)}`).toBeGreaterThan(
        0,
      );
      expect(result.stderr).toContain('q…');
      expect(result.stderr).not.toContain('q'.repeat(40));
    }
  });

  it('--password warns that the process list shows it and names the alternatives; --password-stdin does not', async () => {
    const e = await emulator();
    const visible = await cli([...login(e), 'outlets', '--json'], { env });
    expect(visible.code, visible.stderr).toBe(0);
    const warning = visible.stderr.split('\n').filter((line) => line.startsWith(PASSWORD_WARNING));
    expect(warning).toEqual([expect.stringMatching(/process list.*--password-stdin.*keychain/)]);
    expect(visible.stderr).not.toContain(PASSWORD);

    const piped = await run(['--url', e.url, 'outlets', '--json']);
    expect(piped.code, piped.stderr).toBe(0);
    expect(piped.stderr).toBe('');
    const help = await cli(['--help'], { env });
    expect(help.stdout).toMatch(/--password <password>[\s\S]*process list[\s\S]*--password-stdin/);
  });
});
