/**
 * Measurement 18 at scale: the built `plugboard serve` over 200 controllers (measurement 13's emulator
 * child: fast profile, 50 ms latency, 127.0.0.10–209) with 50 link clients signed in as their own
 * accounts, each subscribed to the events with `app/snapshot` loaded as a window does, plus one real
 * window in Chromium (the service's loopback web window with its per-run token, until every Overview
 * tile is online). The service's CPU time over a fixed window and its resident memory, from /proc,
 * against the same service with no client attached, measured first in the same run.
 */
import type { ControllerState } from '../../src-preload/contract';
import { launchBrowser } from '../e2e/harness';
import { onCleanup } from './cleanup';
import { attachedDesk } from './m18-desks';
import { LabChild } from './m13-lab';
import { overviewLiveAt } from './m13-page';
import type { M18Options } from './m18-options';
import { addOperators, firstAdmin, processUsage, savedLab, signIn, startServe } from './m18-service';
import { median, sleep, waitFor } from './numbers';
import { row, type Row } from './results';

const COUNT = 200;
const LATENCY_MS = 50;
/** Let what attaching started (snapshots, the page's first load) settle before the window. */
const SETTLE_MS = 10_000;

interface Window {
  cpuPercent: number;
  rssMB: number;
  /** Requests the 200 controllers answered per second meanwhile (the service's polling). */
  unitRequestsPerSecond: number;
}

/** CPU seconds ÷ wall seconds over `seconds` (as % of one core), RSS the median of a sample every 5 s. */
async function usageOver(pid: number, seconds: number, lab: LabChild): Promise<Window> {
  const answered = await lab.requests();
  const start = processUsage(pid);
  const t0 = performance.now();
  const rss: number[] = [start.rssMB];
  for (let waited = 0; waited < seconds; waited += 5) {
    await sleep(Math.min(5, seconds - waited) * 1000);
    rss.push(processUsage(pid).rssMB);
  }
  const end = processUsage(pid);
  const wall = (performance.now() - t0) / 1000;
  return {
    cpuPercent: ((end.cpuSeconds - start.cpuSeconds) / wall) * 100,
    rssMB: median(rss),
    unitRequestsPerSecond: ((await lab.requests()) - answered) / wall,
  };
}

const allOnline = (states: Map<string, ControllerState>) =>
  states.size >= COUNT && [...states.values()].every((s) => s.status === 'online');

export async function measureScale(options: M18Options): Promise<Row[]> {
  const child = await LabChild.start();
  try {
    const { urls, user, password } = await child.controllers(COUNT, LATENCY_MS);
    const lab = await savedLab(
      urls.map((url, i) => ({ name: `Unit ${String(i + 1).padStart(3, '0')}`, url, user, password })),
    );
    const serve = await startServe(lab, true);
    const links: { close(): Promise<void> }[] = [];
    let closeBrowser: (() => Promise<void>) | null = null;
    try {
      await firstAdmin(lab, 'admin');
      const admin = await signIn(serve.api, 'admin');
      const names = Array.from({ length: options.clients }, (_, i) => `client${i + 1}`);
      await addOperators(serve.api, admin, names);
      const sessions: string[] = [];
      for (const name of names) sessions.push(await signIn(serve.api, name));
      // Every controller online before anything is measured; then nobody attached.
      const look = await attachedDesk('admin', serve.api, admin, null);
      await waitFor(() => allOnline(look.states), `${COUNT} controllers online in the service`, 180_000, 200);
      await look.close();
      await sleep(SETTLE_MS);
      const idle = await usageOver(serve.pid, options.scaleSeconds, child);

      for (let i = 0; i < names.length; i += 10)
        links.push(
          ...(await Promise.all(
            names.slice(i, i + 10).map((name, k) => attachedDesk(name, serve.api, sessions[i + k]!, null)),
          )),
        );
      const browser = await launchBrowser();
      closeBrowser = onCleanup(() => browser.close());
      await browser.page.goto(serve.web!);
      await overviewLiveAt(browser.page, COUNT, 180_000);
      await sleep(SETTLE_MS);
      const attached = await usageOver(serve.pid, options.scaleSeconds, child);
      if (browser.errors.length) throw new Error(`The window reported errors: ${browser.errors.join('; ')}`);

      const who = `${options.clients} link clients + 1 window`;
      const clients = `${options.clients} link clients (own accounts, events + app/snapshot) + 1 Chromium window`;
      return [
        row({
          measurement: 18,
          figure: `service CPU, ${COUNT} controllers, ${who}`,
          value: attached.cpuPercent,
          unit: '% of a core',
          target: '',
          met: null,
          baselines: [{ name: 'the same service, no client attached', value: idle.cpuPercent }],
          note: `${clients}; CPU seconds (user + system, /proc) over ${options.scaleSeconds} s each, measured after ${SETTLE_MS / 1000} s of settling; ${LATENCY_MS} ms latency, 3 s poll; the controllers answered ${idle.unitRequestsPerSecond.toFixed(0)} requests/s with no client, ${attached.unitRequestsPerSecond.toFixed(0)} with them.`,
        }),
        row({
          measurement: 18,
          figure: `service RSS, ${COUNT} controllers, ${who}`,
          value: attached.rssMB,
          unit: 'MB',
          target: '',
          met: null,
          baselines: [{ name: 'the same service, no client attached', value: idle.rssMB }],
          note: `median of a sample every 5 s over the same windows; + ${(attached.rssMB - idle.rssMB).toFixed(0)} MB for the clients.`,
        }),
      ];
    } finally {
      await closeBrowser?.();
      await Promise.allSettled(links.map((l) => l.close()));
      await serve.stop();
      await lab.remove();
    }
  } finally {
    await child.stop();
  }
}
