/**
 * `plugboard --service URL` (issue 15): the CLI on another machine talks to a running `plugboard serve`
 * through its `api` listener's remote link (/api/v1/link), never to the units. The service here holds
 * the only copy of the password (in memory) and the CLI child has an empty config folder and no
 * keychain, so only the service can have switched the emulated unit. Every call is recorded as the CLI
 * door with the token's name, whatever the client claims; a wrong token switches nothing (exit 4).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { connectRemoteCore } from '../../src-main/link';
import type { TlsMaterial } from '../../src-main/serve/listener';
import { loadTls } from '../../src-main/serve/tls';
import { leadingService } from './lab-services';
import { cli } from './run-cli';

vi.setConfig({ testTimeout: 120_000 });

const SECRET = 'remote-secret-0123456789abcdef';
const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const done of cleanups.splice(0).reverse()) await done();
});

function scratch(): string {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-cli-remote-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The service, with the CLI child's environment carrying no token: each test gives it its own way. */
const service = (tls: TlsMaterial | null = null) =>
  leadingService(cleanups, { secret: SECRET, tls, tokenInEnv: false });

describe('--service URL: the CLI through a remote plugboard serve', () => {
  it('switches through the service, recorded as the CLI by the token name; a token file works too', async () => {
    const { emu, origin, entries, env } = await service();
    const on = await cli(['--service', origin, 'on', 'Bench A:3', '--wait'], {
      env: { ...env, PLUGBOARD_SERVICE_TOKEN: SECRET },
    });
    expect(on.code, on.stderr).toBe(0);
    expect(emu.device.outlet(2).physicalState).toBe(true);
    expect(entries.find((e) => e.outlet === 3 && e.action === 'on')).toMatchObject({
      source: 'cli',
      who: 'ci-runner',
      result: 'ok',
    });

    const tokenFile = join(scratch(), 'service-token');
    writeFileSync(tokenFile, `\n${SECRET}\n`, { mode: 0o600 });
    const off = await cli(
      ['--service', origin, '--service-token-file', tokenFile, 'off', 'Bench A:3', '--wait'],
      {
        env,
      },
    );
    expect(off.code, off.stderr).toBe(0);
    expect(emu.device.outlet(2).physicalState).toBe(false);
    expect(`${on.stdout}${on.stderr}${off.stdout}${off.stderr}`).not.toContain(SECRET);
  });

  it('--service-token on the command line works but warns that the process list shows it', async () => {
    const { emu, origin, env } = await service();
    const typed = await cli(['--service', origin, '--service-token', SECRET, 'on', 'Bench A:4', '--wait'], {
      env,
    });
    expect(typed.code, typed.stderr).toBe(0);
    expect(emu.device.outlet(3).physicalState).toBe(true);
    expect(typed.stderr).toMatch(
      /^plugboard: warning: --service-token is visible to every user of this machine in the process list/m,
    );
    expect(typed.stderr).not.toContain(SECRET);
    // Loopback over HTTP and a token from the environment: nothing to warn about.
    const quiet = await cli(['--service', origin, 'off', 'Bench A:4', '--wait'], {
      env: { ...env, PLUGBOARD_SERVICE_TOKEN: SECRET },
    });
    expect(quiet.code, quiet.stderr).toBe(0);
    expect(quiet.stderr).toBe('');
  });

  it('a wrong token exits 4 and switches nothing; without a token the link is refused even on loopback', async () => {
    const { emu, origin, entries, env } = await service();
    const wrong = await cli(['--service', origin, 'on', 'Bench A:3'], {
      env: { ...env, PLUGBOARD_SERVICE_TOKEN: 'not-the-token-4242424242' },
    });
    expect(wrong.code, wrong.stderr).toBe(4);
    expect(wrong.stderr).toContain(`The Plugboard service at ${origin} refused the token`);
    expect(wrong.stderr).toContain('PLUGBOARD_SERVICE_TOKEN');
    expect(wrong.stderr).not.toContain('not-the-token-4242424242');
    await expect(connectRemoteCore(origin, { token: undefined })).rejects.toMatchObject({
      code: 'AUTH_FAILED',
    });
    expect(emu.device.outlet(2).physicalState).toBe(false);
    expect(entries.filter((e) => e.outlet === 3)).toEqual([]);
  });

  it('a remote caller cannot claim another name or door: the call acts as the token, a window or tray keeps its door', async () => {
    const { emu, origin, entries } = await service();
    const link = await connectRemoteCore(origin, { token: SECRET });
    cleanups.push(() => link.close());
    const [saved] = await link.handlersAs({ door: 'web', who: 'alice' })['controllers/list']({});
    await link.handlersAs({ door: 'web', who: 'alice' })['outlets/set']({
      controllerId: saved!.id,
      outlets: [5],
      on: true,
    });
    await vi.waitFor(() => expect(emu.device.outlet(4).physicalState).toBe(true), { timeout: 20_000 });
    const entry = entries.find((e) => e.outlet === 5 && e.action === 'on');
    expect(entry).toMatchObject({ source: 'cli', who: 'ci-runner' });
    // A desk's window and tray keep their door; the who is still the token's.
    await link.handlersAs({ door: 'tray', who: 'alice' })['outlets/set']({
      controllerId: saved!.id,
      outlets: [6],
      on: true,
    });
    await vi.waitFor(() => expect(emu.device.outlet(5).physicalState).toBe(true), { timeout: 20_000 });
    expect(entries.find((e) => e.outlet === 6 && e.action === 'on')).toMatchObject({
      source: 'tray',
      who: 'ci-runner',
    });
  });

  it('refuses what is not a Plugboard remote link: an emulated unit answers, but not the protocol', async () => {
    const { emu } = await service();
    await expect(connectRemoteCore(emu.url, { token: SECRET })).rejects.toMatchObject({
      code: 'NOT_A_CONTROLLER',
      message: expect.stringContaining("not a Plugboard service's remote link"),
    });
  });

  it('over HTTPS: a self-signed certificate needs --service-fingerprint; the right one works, a wrong one sends nothing', async () => {
    const tls = (await loadTls({ kind: 'self-signed' }, scratch(), ['127.0.0.1']))!;
    const { emu, origin, entries, env } = await service(tls);
    const withToken = { ...env, PLUGBOARD_SERVICE_TOKEN: SECRET };
    const untrusted = await cli(['--service', origin, 'on', 'Bench A:2'], { env: withToken });
    expect(untrusted.code, untrusted.stderr).toBe(4);
    expect(untrusted.stderr).toContain('--service-fingerprint');

    const other = tls.fingerprint256.replace(/^[0-9A-F]{2}/, (pair) => (pair === '00' ? '01' : '00'));
    const wrong = await cli(['--service', origin, '--service-fingerprint', other, 'on', 'Bench A:2'], {
      env: withToken,
    });
    expect(wrong.code, wrong.stderr).toBe(4);
    expect(wrong.stderr).toContain('is not the one pinned for it');
    expect(emu.device.outlet(1).physicalState).toBe(false);
    expect(entries).toEqual([]);

    const pinned = await cli(
      [
        '--service',
        origin,
        '--service-fingerprint',
        tls.fingerprint256.toLowerCase(),
        'on',
        'Bench A:2',
        '--wait',
      ],
      { env: withToken },
    );
    expect(pinned.code, pinned.stderr).toBe(0);
    expect(emu.device.outlet(1).physicalState).toBe(true);
    expect(entries.find((e) => e.outlet === 2)).toMatchObject({ source: 'cli', who: 'ci-runner' });
  });
});
