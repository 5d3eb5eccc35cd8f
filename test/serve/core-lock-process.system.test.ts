/**
 * One Core per config folder, at the process level: the built `plugboard serve` (out/main/plugboard.js),
 * the built web shell (out/main/web.js) and the built CLI on one folder. After kill -9 the first service
 * started takes the lock; a holder that still lives (even stopped) keeps it; a service that lost its lock
 * leaves its successor's socket, so the CLI goes through the successor's Core; the web shell and a service
 * never run two Cores, whichever starts first. Everything waits on lines, exits or events, never on time.
 */
import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry, AppInfo } from '../../src-preload/model';
import { coreSocketPath, findRunningCore } from '../../src-main/link';
import { Client, openSocket, tokenProtocols } from '../web/web-helpers';
import { cleanUpServe, runBuilt, savedBench, serveBuilt, webBuilt, type ServeProcess } from './built-serve';

afterEach(cleanUpServe);

const REFUSED = 'Another Plugboard already runs the Core';

/** `plugboard serve` on `configDir` with the bench's credentials: resolves once it printed Ready. */
async function startService(configDir: string, credentials: string): Promise<ServeProcess> {
  const service = serveBuilt(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
    CREDENTIALS_DIRECTORY: credentials,
  });
  await service.line(/^Ready\.$/);
  return service;
}

/** Ready, or the exit code and what it printed on stderr. */
async function outcome(service: ServeProcess): Promise<'ready' | { code: number | null; stderr: string }> {
  return Promise.race([
    service.line(/^Ready\.$/).then(() => 'ready' as const),
    service.exit.then(({ code, stderr }) => ({ code, stderr })),
  ]).catch(async () => {
    const { code, stderr } = await service.exit;
    return { code, stderr };
  });
}

describe('the Core lock between real processes', () => {
  it(
    'after kill -9 the first service started takes the lock; while the old one lives, even stopped, it is refused',
    { timeout: 180_000 },
    async () => {
      const { configDir, credentials } = await savedBench();
      const first = await startService(configDir, credentials);
      first.child.kill('SIGKILL');
      await first.exit;

      // Several starters find the same dead holder at once: exactly one takes over, at the first attempt.
      const starters = [0, 1, 2].map(() =>
        serveBuilt(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
          CREDENTIALS_DIRECTORY: credentials,
        }),
      );
      const outcomes = await Promise.all(starters.map(outcome));
      expect(outcomes.filter((o) => o === 'ready')).toHaveLength(1);
      for (const refused of outcomes.filter((o) => o !== 'ready')) {
        expect(refused).toMatchObject({ code: 1 });
        expect((refused as { stderr: string }).stderr).toContain(REFUSED);
      }
      const second = starters[outcomes.indexOf('ready')]!;

      // Alive but stopped (as under a debugger, or a machine too busy to run it): it keeps the lock.
      second.child.kill('SIGSTOP');
      const third = serveBuilt(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
        CREDENTIALS_DIRECTORY: credentials,
      });
      const refused = await third.exit;
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(REFUSED);
      expect(refused.stderr).toContain(`plugboard serve (PID ${second.child.pid}`);

      second.child.kill('SIGCONT');
      second.child.kill('SIGKILL');
      await second.exit;
      const fourth = serveBuilt(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
        CREDENTIALS_DIRECTORY: credentials,
      });
      expect(await outcome(fourth)).toBe('ready');
      fourth.child.kill('SIGTERM');
      expect((await fourth.exit).code).toBe(0);
      expect(existsSync(path.join(configDir, 'core.lock'))).toBe(false);
    },
  );

  it(
    'a service that lost its lock leaves its successor’s socket, and the CLI acts through the successor’s Core',
    { timeout: 180_000 },
    async () => {
      const { configDir, credentials, emu } = await savedBench();
      const old = await startService(configDir, credentials);
      // Its lock taken from under it while it cannot run (someone removed it by hand).
      old.child.kill('SIGSTOP');
      rmSync(path.join(configDir, 'core.lock'), { recursive: true, force: true });
      const successor = await startService(configDir, credentials);
      old.child.kill('SIGCONT');
      const lost = await old.exit;
      expect(lost.code).toBe(1);
      expect(lost.stderr + lost.stdout).toContain('The Core lock was lost');

      expect(existsSync(coreSocketPath(configDir))).toBe(true);
      const link = await findRunningCore(configDir);
      expect(link).not.toBeNull();
      const entries: ActivityEntry[] = [];
      link!.subscribe((name, payload) => {
        if (name === 'activity/added') entries.push(payload as ActivityEntry);
      });
      // Only the successor holds the password (a systemd credential): a CLI with its own Core could not
      // log in, and its switch would not be in the successor's log.
      const cli = runBuilt(['off', 'bench-a:3'], { PLUGBOARD_CONFIG_DIR: configDir });
      const done = await cli.exit;
      expect(done.code, done.stderr).toBe(0);
      await vi.waitFor(() => expect(emu.device.outlet(2).state).toBe(false), { timeout: 30_000 });
      await vi.waitFor(
        () =>
          expect(entries.find((e) => e.outlet === 3 && e.action === 'off')).toMatchObject({
            source: 'cli',
            result: 'ok',
          }),
        { timeout: 30_000 },
      );
      await link!.close();
      successor.child.kill('SIGTERM');
      expect((await successor.exit).code).toBe(0);
    },
  );
});

describe('the web shell and plugboard serve on one config folder', () => {
  it(
    'a service started while the web shell runs the Core is refused, naming it',
    { timeout: 180_000 },
    async () => {
      const { configDir, credentials } = await savedBench();
      const web = webBuilt([], { PLUGBOARD_CONFIG_DIR: configDir });
      await web.line(/^Plugboard web shell: http:/);
      const service = serveBuilt(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
        CREDENTIALS_DIRECTORY: credentials,
      });
      const refused = await service.exit;
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain(REFUSED);
      expect(refused.stderr).toContain(`the web shell (npm run web) (PID ${web.child.pid}`);
      web.child.kill('SIGTERM');
      expect((await web.exit).code).toBe(0);
      // The web shell let go: now the service starts.
      const after = await startService(configDir, credentials);
      after.child.kill('SIGTERM');
      expect((await after.exit).code).toBe(0);
    },
  );

  it('a web shell started while a service runs uses the service’s Core', { timeout: 180_000 }, async () => {
    const { configDir, credentials } = await savedBench();
    const service = await startService(configDir, credentials);
    const web = webBuilt([], { PLUGBOARD_CONFIG_DIR: configDir });
    await web.line(/^Another Plugboard runs the Core for .*: this window uses it/);
    const url = new URL((await web.line(/^Plugboard web shell: (http:\S+)$/))[1]!);
    const socket = await openSocket(
      `ws://${url.host}/ws`,
      { Origin: url.origin, Host: url.host },
      tokenProtocols(url.searchParams.get('token')!),
    );
    const client = new Client(socket);
    const info = (await client.call('app/info', {})) as { ok: true; value: AppInfo };
    expect(info.value.shell).toBe('serve');
    socket.close();

    // The service stops: the web shell, which has no Core of its own, stops too and says why.
    service.child.kill('SIGTERM');
    expect((await service.exit).code).toBe(0);
    const stopped = await web.exit;
    expect(stopped.code).toBe(1);
    expect(stopped.stderr).toContain('stopped, so the web shell stops too');
  });
});
