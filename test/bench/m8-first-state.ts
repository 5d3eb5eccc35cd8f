/**
 * 8. Start to first state: a cold start of the web shell (its own Core over a config folder with 10
 * saved controllers, passwords in a real gnome-keyring when available), until every controller tab in
 * Chromium shows its live status ("online" dot). Timed from the moment the shell process is told to
 * start (its modules already loaded, as in the packaged app) to the page seeing the last tab go online.
 * Excluded: starting the emulators, saving the controllers, launching Chromium.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { launchBrowser } from '../e2e/harness';
import { buildOnce, repoRoot } from './build';
import { onCleanup } from './cleanup';
import { Farm } from './farm-client';
import { median } from './numbers';
import { row, type Row } from './results';

const CONTROLLERS = 10;
const LATENCY_MS = 50;
const TRIALS = 5;

interface Trial {
  shellUpMs: number;
  tabsMs: number;
  firstOnlineMs: number;
  onlineMs: number;
}

function hasKeychain(): boolean {
  try {
    execFileSync('sh', ['-c', 'command -v dbus-run-session && command -v gnome-keyring-daemon'], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/** The child, in its own process group (so stopping it stops dbus and the keyring too). */
function startChild(home: string, urls: string[], keychain: boolean): ChildProcess {
  const script = resolve(import.meta.dirname, 'first-state-child.ts');
  const node = [process.execPath, ...process.execArgv, script].map((a) => JSON.stringify(a)).join(' ');
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    HOME: home,
    XDG_DATA_HOME: join(home, 'data'),
    DISPLAY: '',
    PLUGBOARD_CONFIG_DIR: join(home, 'config'),
    PLUGBOARD_BENCH_URLS: JSON.stringify(urls),
    PLUGBOARD_BENCH_KEYCHAIN: keychain ? '1' : '0',
  };
  const [command, args] = keychain
    ? ([
        'dbus-run-session',
        [
          '--',
          'sh',
          '-c',
          `echo -n bench | gnome-keyring-daemon --unlock --components=secrets >/dev/null; exec ${node}`,
        ],
      ] as const)
    : (['sh', ['-c', `exec ${node}`]] as const);
  return spawn(command, [...args], {
    cwd: repoRoot,
    env,
    detached: true,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
}

function killGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  try {
    if (child.pid) process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

async function oneTrial(urls: string[], keychain: boolean): Promise<Trial> {
  const home = await mkdtemp(join(tmpdir(), 'plugboard-bench-start-'));
  const child = startChild(home, urls, keychain);
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  const stop = onCleanup(async () => {
    child.stdin?.end('STOP\n');
    const timeout = new Promise<'timeout'>((done) => setTimeout(() => done('timeout'), 10_000).unref());
    if ((await Promise.race([exited, timeout])) === 'timeout') killGroup(child, 'SIGKILL');
    killGroup(child, 'SIGTERM');
    await rm(home, { recursive: true, force: true });
  });
  // Lines are kept until asked for: the child may speak before the bench listens.
  const heard: string[] = [];
  const listeners = new Set<() => void>();
  createInterface({ input: child.stdout! }).on('line', (line) => {
    heard.push(line);
    for (const listener of [...listeners]) listener();
  });
  const next = (word: string): Promise<Record<string, unknown>> =>
    new Promise((done, fail) => {
      const look = (): void => {
        const at = heard.findIndex((line) => line.startsWith(`${word} `));
        if (at < 0) return;
        listeners.delete(look);
        const [line] = heard.splice(at, 1);
        done(JSON.parse(line!.slice(word.length + 1)) as Record<string, unknown>);
      };
      listeners.add(look);
      look();
      void exited.then(() => fail(new Error(`The start-up child exited before saying ${word}.`)));
    });
  const browser = await launchBrowser();
  const closeBrowser = onCleanup(() => browser.close());
  try {
    await next('SETUP');
    await browser.page.goto('about:blank');
    const upLine = next('UP');
    child.stdin!.write('GO\n');
    const up = (await upLine) as { url: string; t0: number; up: number };
    await browser.page.goto(up.url);
    const stamps = await browser.page.waitForFunction(
      (count) => {
        const w = window as unknown as { benchTabsAt?: number; benchFirstAt?: number };
        const at = performance.timeOrigin + performance.now();
        const tabs = [
          ...document.querySelectorAll('[role="tablist"][aria-label="Controllers"] [role="tab"]'),
        ];
        if (tabs.length !== count) return false;
        w.benchTabsAt ??= at;
        const online = tabs.filter((tab) => tab.querySelector('[data-status="online"]')).length;
        if (online > 0) w.benchFirstAt ??= at;
        return online === count ? { tabs: w.benchTabsAt, first: w.benchFirstAt, online: at } : false;
      },
      CONTROLLERS,
      { polling: 5, timeout: 30_000 },
    );
    const { tabs, first, online } = (await stamps.jsonValue()) as {
      tabs: number;
      first: number;
      online: number;
    };
    if (browser.errors.length) throw new Error(`The page reported errors: ${browser.errors.join('; ')}`);
    return {
      shellUpMs: up.up - up.t0,
      tabsMs: tabs - up.t0,
      firstOnlineMs: first - up.t0,
      onlineMs: online - up.t0,
    };
  } finally {
    await closeBrowser();
    await stop();
  }
}

export async function measureFirstState(): Promise<Row[]> {
  await buildOnce();
  const keychain = hasKeychain();
  const farm = await Farm.start();
  try {
    const urls = await farm.add(CONTROLLERS, { latency: LATENCY_MS });
    const trials: Trial[] = [];
    for (let t = 0; t < TRIALS; t++) trials.push(await oneTrial(urls, keychain));
    const online = median(trials.map((t) => t.onlineMs));
    return [
      row({
        measurement: 8,
        figure: `start → ${CONTROLLERS} tabs show live state`,
        value: online,
        unit: 'ms',
        target: '≤ 1000 ms',
        met: online <= 1000,
        note: `median of ${TRIALS} cold starts (worst ${Math.max(...trials.map((t) => t.onlineMs)).toFixed(0)} ms); ${LATENCY_MS} ms latency; passwords ${keychain ? 'in gnome-keyring via keytar' : 'in memory (no dbus-run-session/gnome-keyring here)'}; Chromium already running.`,
      }),
      row({
        measurement: 8,
        figure: 'start → shell listening',
        value: median(trials.map((t) => t.shellUpMs)),
        unit: 'ms',
        target: '',
        met: null,
      }),
      row({
        measurement: 8,
        figure: `start → ${CONTROLLERS} tabs drawn`,
        value: median(trials.map((t) => t.tabsMs)),
        unit: 'ms',
        target: '',
        met: null,
      }),
      row({
        measurement: 8,
        figure: 'start → first tab online',
        value: median(trials.map((t) => t.firstOnlineMs)),
        unit: 'ms',
        target: '',
        met: null,
      }),
    ];
  } finally {
    await farm.stop();
  }
}
