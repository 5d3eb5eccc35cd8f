/**
 * The unpacked app that `npm run dist -- --dir` builds, made here with a stand-in Electron distribution
 * (Electron's download is unreachable): what app.asar holds, the fuses, the `plugboard` launcher, and
 * the packaged command line run with only the production dependencies.
 *
 * The test runs the packaging step of `npm run dist` (`electron-builder --dir`) on the existing build in
 * out/ — `npm test` builds first — rather than the whole script: rebuilding out/ here would pull the
 * files from under the other test files that run at the same time.
 */
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { extractFile, listPackage, statFile } from '@electron/asar';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';
import { makeStandInElectronDist, readFuses } from './stand-in-electron';

const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);

interface LockEntry {
  dev?: boolean;
  version?: string;
}
interface Lock {
  packages: Record<string, LockEntry>;
}

/** `node_modules/a/node_modules/@s/b` for any path inside that package; null outside node_modules. */
function packageDirOf(path: string): string | null {
  const parts = path.split('/').filter(Boolean);
  let dir: string | null = null;
  for (let i = 0; i < parts.length; i++) {
    if (parts[i] !== 'node_modules') continue;
    const scoped = parts[i + 1]?.startsWith('@');
    const name = scoped ? parts.slice(i + 1, i + 3) : parts.slice(i + 1, i + 2);
    if (name.length !== (scoped ? 2 : 1)) break;
    dir = [...(dir ? [dir] : []), 'node_modules', ...name].join('/');
    i += name.length;
  }
  return dir;
}

let temp = '';
let appDir = '';
let asarPath = '';
let listing: string[] = [];
let proxyConnections = 0;
let proxy: Server | undefined;

/** Runs `cmd args` and resolves with its output, whatever the exit code. */
function capture(cmd: string, args: string[], env: NodeJS.ProcessEnv) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done, fail) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

beforeAll(async () => {
  if (!existsSync(join(ROOT, 'out/main/plugboard.js')))
    throw new Error('out/ is missing: build first with `npx electron-vite build` (npm test does).');
  temp = await mkdtemp(join(tmpdir(), 'plugboard-dist-'));
  const electronDist = await makeStandInElectronDist(join(temp, 'electron-dist'));
  // Every download electron-builder might try (Electron, fpm, AppImage tools…) honours these proxies:
  // any connection to this one is a download attempt.
  proxy = createServer((socket) => {
    proxyConnections++;
    socket.destroy();
  });
  await new Promise<void>((done) => proxy!.listen(0, '127.0.0.1', done));
  const { port } = proxy.address() as { port: number };
  const via = `http://127.0.0.1:${port}`;
  const started = performance.now();
  const result = await capture(
    process.execPath,
    [
      join(ROOT, 'node_modules/electron-builder/cli.js'),
      '--dir',
      `-c.electronDist=${electronDist}`,
      `-c.directories.output=${join(temp, 'dist')}`,
    ],
    {
      ...process.env,
      HTTP_PROXY: via,
      HTTPS_PROXY: via,
      http_proxy: via,
      https_proxy: via,
      ELECTRON_GET_USE_PROXY: '1',
      CI: '1',
    },
  );
  console.log(`electron-builder --dir took ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (result.code !== 0)
    throw new Error(`electron-builder --dir failed:\n${result.stdout}\n${result.stderr}`);
  appDir = join(temp, 'dist', 'linux-unpacked');
  asarPath = join(appDir, 'resources', 'app.asar');
  listing = listPackage(asarPath, { isPack: false });
}, 240_000);

afterAll(async () => {
  await new Promise<void>((done) => (proxy ? proxy.close(() => done()) : done()));
  if (temp) await rm(temp, { recursive: true, force: true });
});

describe.runIf(process.platform === 'linux')('electron-builder --dir with a stand-in Electron', () => {
  it('tried to download nothing', () => {
    expect(proxyConnections).toBe(0);
  });

  it('app.asar holds main, preload, the command line, the web shell, the renderer and the icons', () => {
    for (const file of [
      '/package.json',
      '/out/main/index.js',
      '/out/main/plugboard.js',
      '/out/main/web.js',
      '/out/preload/index.cjs',
      '/out/renderer/index.html',
      '/resources/icon.png',
      '/resources/tray/tray-light-on.png',
    ])
      expect(listing).toContain(file);
    expect(listing.some((path) => /^\/out\/renderer\/assets\/index-[\w-]+\.js$/.test(path))).toBe(true);
  });

  it('app.asar holds no test, no source and no build tool', () => {
    const own = listing.filter((path) => !path.startsWith('/node_modules/'));
    expect(own.filter((path) => /^\/(test|src-main|src-preload|src-renderer|dist)(\/|$)/.test(path))).toEqual(
      [],
    );
    expect(own.filter((path) => /\.(ts|svelte|map)$/.test(path))).toEqual([]);
    expect(
      listing.filter((path) => /\/(tests?|__tests__|spec)\/|\.(test|spec)\.[cm]?js$/.test(path)),
    ).toEqual([]);
  });

  it('only production dependencies ship: no devDependency, nothing the lockfile marks dev-only', async () => {
    const pkg = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as {
      dependencies: Record<string, string>;
      devDependencies: Record<string, string>;
    };
    const lock = JSON.parse(await readFile(join(ROOT, 'package-lock.json'), 'utf8')) as Lock;
    const packageDirs = new Set<string>();
    for (const path of listing) packageDirs.add(packageDirOf(path) ?? '');
    packageDirs.delete('');
    const shipped = [...packageDirs];
    const topLevel = new Set(
      shipped.filter((dir) => dir.split('node_modules/').length === 2).map((d) => d.slice(13)),
    );
    for (const name of Object.keys(pkg.dependencies)) expect(topLevel).toContain(name);
    for (const name of Object.keys(pkg.devDependencies)) expect(topLevel).not.toContain(name);
    // electron-builder lays node_modules out afresh (hoisting differs from the lockfile's), so compare
    // name@version: each shipped package must be one the lockfile installs for production.
    const production = new Set<string>();
    for (const [key, entry] of Object.entries(lock.packages)) {
      const name = key.slice(key.lastIndexOf('node_modules/') + 13);
      if (key && !entry.dev && entry.version) production.add(`${name}@${entry.version}`);
    }
    const notProduction = shipped
      .map((dir) => {
        const manifest = JSON.parse(extractFile(asarPath, `${dir}/package.json`).toString('utf8')) as {
          version: string;
        };
        return `${dir.slice(dir.lastIndexOf('node_modules/') + 13)}@${manifest.version}`;
      })
      .filter((id) => !production.has(id));
    expect(notProduction).toEqual([]);
  });

  it("keytar's native module is unpacked from the archive", () => {
    const binding = '/node_modules/keytar/build/Release/keytar.node';
    expect(listing).toContain(binding);
    expect(statFile(asarPath, binding.slice(1))).toHaveProperty('unpacked', true);
    expect(existsSync(join(appDir, 'resources', 'app.asar.unpacked', binding))).toBe(true);
  });

  it('the fuses are flipped as electron-builder.yml says', async () => {
    expect(await readFuses(join(appDir, 'plugboard-desktop'))).toEqual({
      runAsNode: true,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: true,
    });
  });

  it('resources/cli/plugboard runs the packaged command line with the app binary as Node', async () => {
    // The stand-in binary prints what it was asked to run instead of running it.
    const launcher = join(appDir, 'resources', 'cli', 'plugboard');
    const { stdout } = await run(launcher, ['outlets', '--json', 'a b'], { env: { PATH: process.env.PATH } });
    expect(stdout.split('\n')).toEqual([
      'ELECTRON_RUN_AS_NODE=1',
      join(appDir, 'resources', 'app.asar.unpacked', 'out', 'main', 'plugboard.js'),
      'outlets',
      '--json',
      'a b',
      '',
    ]);
    expect(listing).toContain('/out/main/plugboard.js');
  });

  describe('the packaged command line, from the files the launcher runs', () => {
    let emulator: RunningEmulator | undefined;
    afterAll(async () => emulator?.close());

    it('lists the outlets of a controller with only the unpacked files (no project node_modules, no tsx)', async () => {
      const unpacked = join(appDir, 'resources', 'app.asar.unpacked');
      // Unpacked files are in the archive's index too, marked so.
      expect(statFile(asarPath, 'out/main/plugboard.js')).toHaveProperty('unpacked', true);
      emulator = await startEmulator({ password: 'pw-4711', outlets: 3 });
      emulator.device.setOutlet(0, { state: false });
      emulator.device.setOutlet(1, { name: 'Lab PSU', state: true });
      emulator.device.setOutlet(2, { state: false });
      const { stdout } = await run(
        process.execPath,
        [
          join(unpacked, 'out/main/plugboard.js'),
          ...['outlets', '--json', '--url', emulator.url, '--user', 'admin', '--password', 'pw-4711'],
        ],
        // From a temporary folder, so nothing resolves from the project's node_modules.
        { cwd: temp, env: { PATH: process.env.PATH, PLUGBOARD_CONFIG_DIR: join(temp, 'config') } },
      );
      const outlets = JSON.parse(stdout) as { number: number; name: string; physical_state: boolean }[];
      expect(outlets.map((o) => [o.number, o.name, o.physical_state])).toEqual([
        [1, 'Outlet 1', false],
        [2, 'Lab PSU', true],
        [3, 'Outlet 3', false],
      ]);
    });
  });
});
