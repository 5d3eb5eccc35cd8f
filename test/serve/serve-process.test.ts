/**
 * `plugboard serve` as a real process (the bin entry, run from source by tsx) against an emulated
 * controller on 127.0.0.1: saved controller from the config folder, its password from a systemd
 * credential (no keychain in the child), the JSON API, the Core's socket for the CLI and the app, one
 * Core per config folder, and a clean stop on SIGTERM. Waits on the child's lines and exit, never on time.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ActivityEntry, ControllerSummary } from '../../src-preload/model';
import { openSavedCore } from '../../src-main/core/saved-core';
import { coreSocketPath, findRunningCore } from '../../src-main/link';
import { controllerAccount, credentialName, MemorySecretStore } from '../../src-main/secrets';
import { cleanUp, emulator } from '../core/harness';

const root = path.resolve(import.meta.dirname, '../..');
const children: ChildProcessWithoutNullStreams[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const child of children.splice(0))
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  await cleanUp();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

interface Serve {
  child: ChildProcessWithoutNullStreams;
  /** Resolves with the first stdout line matching, rejects if the process ends first. */
  line(pattern: RegExp): Promise<RegExpExecArray>;
  exit: Promise<{ code: number | null; stdout: string; stderr: string }>;
}

function serve(args: string[], env: NodeJS.ProcessEnv): Serve {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src-main/bin/plugboard.ts', 'serve', ...args], {
    cwd: root,
    // No desktop session: the child finds no keychain, as a systemd service would.
    env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '', ...env },
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  const waiters = new Set<() => void>();
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
    stdout += chunk;
    for (const check of waiters) check();
  });
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exit = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) =>
    child.once('close', (code) => resolve({ code, stdout, stderr })),
  );
  return {
    child,
    exit,
    line: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const found = stdout
            .split('\n')
            .map((l) => pattern.exec(l))
            .find((m) => m !== null);
          if (found) {
            waiters.delete(check);
            resolve(found);
          }
        };
        waiters.add(check);
        check();
        void exit.then(() =>
          reject(new Error(`plugboard serve ended before printing ${pattern}:\n${stdout}\n${stderr}`)),
        );
      }),
  };
}

/** A config folder with `bench-a` saved (as the app saves it), its password as a systemd credential. */
async function savedBench(): Promise<{
  configDir: string;
  credentials: string;
  controller: ControllerSummary;
  emuUrl: string;
  emu: Awaited<ReturnType<typeof emulator>>;
}> {
  const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-serve-'));
  dirs.push(scratch);
  const configDir = path.join(scratch, 'config');
  const credentials = path.join(scratch, 'credentials');
  mkdirSync(credentials, { mode: 0o700 });
  const emu = await emulator();
  const secrets = new MemorySecretStore();
  const core = await openSavedCore({
    shell: 'test',
    version: '0.0.0-test',
    log: () => undefined,
    configDir,
    secrets,
  });
  const controller = await core.handlers['controllers/add']({
    url: emu.url,
    name: 'bench-a',
    auth: { kind: 'digest', user: 'admin', password: '1234' },
  });
  await core.dispose();
  const account = controllerAccount(controller.id);
  writeFileSync(path.join(credentials, credentialName(account)), (await secrets.get(account))!, {
    mode: 0o600,
  });
  return { configDir, credentials, controller, emuUrl: emu.url, emu };
}

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

  it('lets a switch under way finish when SIGTERM comes, then exits 0', { timeout: 120_000 }, async () => {
    const { configDir, credentials, emu } = await savedBench();
    const secret = 'ci-secret-0123456789abcdef';
    writeFileSync(path.join(credentials, 'plugboard.tokens'), `ci-runner:${secret}\n`);
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
    // The unit carries the switch out at once but answers late: the request is under way at SIGTERM.
    emu.device.slowOutletsMs = 1_500;
    const answer = fetch(`${api}/api/v1/controllers/bench-a/outlets/2`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${secret}` },
      body: JSON.stringify({ action: 'off' }),
    });
    await vi.waitFor(() => expect(emu.device.outlet(1).state).toBe(false), { timeout: 30_000 });
    service.child.kill('SIGTERM');
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ outlet: 2, action: 'off', failed: [] });
    expect((await service.exit).code).toBe(0);
  });

  it('exits 2 with a sentence for a bad flag, before starting anything', { timeout: 60_000 }, async () => {
    const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-serve-'));
    dirs.push(scratch);
    const service = serve(['--listen', 'pdudaemon=0.0.0.0:16421', '--config-dir', scratch], {});
    const { code, stderr } = await service.exit;
    expect(code).toBe(2);
    expect(stderr).toContain('faces the network');
    expect(existsSync(path.join(scratch, 'core.lock'))).toBe(false);
  });
});
