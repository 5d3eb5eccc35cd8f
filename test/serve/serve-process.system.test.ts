/**
 * `plugboard serve` as a real process (the built bin, out/main/plugboard.js) against an emulated
 * controller on 127.0.0.1: saved controller from the config folder, its password from a systemd
 * credential (no keychain in the child), the JSON API, the Core's socket for the CLI and the app, one
 * Core per config folder, and a clean stop on SIGTERM. Waits on the child's lines and exit, never on time.
 */
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import { coreSocketPath, findRunningCore } from '../../src-main/link';
import { recordingProxy, type RecordingProxy } from '../core/recording-proxy';
import { cleanUpServe, savedBench, scratchDir, serveBuilt as serve } from './built-serve';

const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await cleanUpServe();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url);
  return response.json();
}

describe('plugboard serve (a real process)', () => {
  it(
    'serves the saved controllers, lends its Core to the CLI, refuses a second Core, and stops cleanly on SIGTERM',
    { timeout: 120_000 },
    async () => {
      const { configDir, credentials, controller, emu } = await savedBench();
      const service = serve(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
        CREDENTIALS_DIRECTORY: credentials,
      });
      const api = (await service.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
      // Without tokens, it says at start who may read the API (anyone who may connect), and that only a
      // signed-in account may switch through it; with no administrator yet, how to add the first.
      await service.line(
        /^api: no tokens .*: every account on this machine may read .*; only a signed-in account may switch through it\.$/,
      );
      await service.line(
        /^accounts: no administrator yet; add the first one on this machine, as the owner of the config folder: plugboard accounts add NAME --role admin --password-stdin$/,
      );
      await service.line(/^Ready\.$/);

      // The password came from the credential: the controller goes online and its outlets show.
      await expect
        .poll(
          async () => ((await getJson(`${api}/api/v1/controllers/bench-a`)) as { status: string }).status,
          { timeout: 30_000 },
        )
        .toBe('online');

      // The CLI (or the app) finds the running Core and acts through it, as itself.
      const link = await findRunningCore(configDir);
      expect(link).not.toBeNull();
      const entries: ActivityEntry[] = [];
      link!.subscribe((name, payload) => {
        if (name === 'activity/added') entries.push(payload as ActivityEntry);
      });
      const result = await link!
        .handlersAs({ door: 'cli', who: 'tester' })
        ['outlets/set']({ controllerId: controller.id, outlets: [3], on: false });
      expect(result.failed).toEqual([]);
      await vi.waitFor(() => expect(emu.device.outlet(2).physicalState).toBe(false), { timeout: 30_000 });
      await vi.waitFor(
        () =>
          expect(entries.find((e) => e.outlet === 3 && e.result === 'ok')).toMatchObject({
            source: 'cli',
            who: 'tester',
          }),
        { timeout: 30_000 },
      );

      // One Core per config folder: a second service is refused and says why.
      const second = serve(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
        CREDENTIALS_DIRECTORY: credentials,
      });
      const refused = await second.exit;
      expect(refused.code).toBe(1);
      expect(refused.stderr).toContain('Another Plugboard already runs the Core');

      service.child.kill('SIGTERM');
      await link!.closed;
      const stopped = await service.exit;
      expect(stopped.code).toBe(0);
      expect(stopped.stdout).toContain('Stopped.');
      expect(existsSync(coreSocketPath(configDir))).toBe(false);
      expect(existsSync(path.join(configDir, 'core.lock'))).toBe(false);
      expect(await findRunningCore(configDir)).toBeNull();
    },
  );

  it('lets a switch under way finish when SIGTERM comes, then exits 0', async () => {
    // The unit carries the switch out at once, but its answer is held (by a proxy in between) until the
    // service has said it is stopping: the request is under way at SIGTERM, however long anything takes.
    let stopping!: () => void;
    const stopped = new Promise<void>((resolve) => (stopping = resolve));
    const { configDir, credentials, emu } = await savedBench('bench-a', async (url) => {
      const proxy = await recordingProxy(url, {
        holdAnswer: (req) => (req.method === 'PUT' ? stopped : undefined),
      });
      proxies.push(proxy);
      return proxy.url;
    });
    const secret = 'ci-secret-0123456789abcdef';
    writeFileSync(path.join(credentials, 'plugboard.tokens'), `ci-runner[operator]:${secret}\n`);
    const service = serve(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
      CREDENTIALS_DIRECTORY: credentials,
    });
    const api = (await service.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
    await expect
      .poll(
        async () =>
          (
            (await fetch(`${api}/api/v1/controllers/bench-a`, {
              headers: { Authorization: `Bearer ${secret}` },
            }).then((r) => r.json())) as { status: string }
          ).status,
        { timeout: 30_000 },
      )
      .toBe('online');
    const answer = fetch(`${api}/api/v1/controllers/bench-a/outlets/2`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}` },
      body: JSON.stringify({ action: 'off' }),
    });
    await vi.waitFor(() => expect(emu.device.outlet(1).state).toBe(false), { timeout: 30_000 });
    service.child.kill('SIGTERM');
    await service.line(/: stopping \(requests under way may finish\)\.$/);
    stopping();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outlet: 2, action: 'off', failed: [] });
    expect((await service.exit).code).toBe(0);
  });

  it('exits 2 with a sentence for a bad flag, before starting anything', { timeout: 60_000 }, async () => {
    const scratch = scratchDir();
    const service = serve(['--listen', 'pdudaemon=0.0.0.0:16421', '--config-dir', scratch], {});
    const { code, stderr } = await service.exit;
    expect(code).toBe(2);
    expect(stderr).toContain('faces the network');
    expect(existsSync(path.join(scratch, 'core.lock'))).toBe(false);
  });
});
