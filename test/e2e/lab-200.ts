/**
 * A lab of many controllers for e2e tests and the bench: N (default 200) emulators in this process, one
 * per loopback address 127.0.0.10, .11, … (Linux routes all of 127.0.0.0/8 to lo), all on the same port so
 * a range probe "127.0.0.10-209:PORT" finds them, in the fast profile (no latency, short delays).
 */
import type { Core } from '../../src-main/core/index';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator/index';
import type { ControllerSummary } from '../../src-preload/contract';
import { QUICK_EMULATOR } from './lab';

/** The first host is 127.0.0.FIRST_HOST; the last possible one 127.0.0.254. */
export const FIRST_HOST = 10;
export const MAX_UNITS = 254 - FIRST_HOST + 1;

export interface LabUnit {
  /** "Unit 001"…: also the emulator's own name (`relay/name`). */
  name: string;
  /** 127.0.0.N */
  host: string;
  /** http://127.0.0.N:PORT */
  url: string;
  emulator: RunningEmulator;
}

export interface ManyControllers {
  units: LabUnit[];
  /** The one port every unit listens on. */
  port: number;
  /** What the Add dialog's range probe takes to find them all: "127.0.0.10-209:PORT". */
  range: string;
  user: string;
  password: string;
  close(): Promise<void>;
}

export interface ManyOptions {
  /** How many (1–245), default 200. */
  count?: number;
  /** Default admin / 1234 on every unit. */
  user?: string;
  password?: string;
  /** Extra emulator options for every unit (QUICK_EMULATOR and `meters: false` underneath). */
  emulator?: EmulatorOptions;
  /** Start this many at once (default 25): servers and digest state are cheap, sockets are not free. */
  concurrency?: number;
}

function unitName(i: number): string {
  return `Unit ${String(i + 1).padStart(3, '0')}`;
}

function isAddressInUse(error: unknown): boolean {
  return (error as NodeJS.ErrnoException | undefined)?.code === 'EADDRINUSE';
}

/**
 * Start `count` emulators on 127.0.0.10 upwards, on one shared port: the first picks a free port, the
 * rest take the same (each address is its own socket). If another program holds that port on one of the
 * addresses, everything started is closed and a new port is tried (up to 5 times).
 */
export async function startManyControllers(options: ManyOptions = {}): Promise<ManyControllers> {
  const count = options.count ?? 200;
  if (!Number.isInteger(count) || count < 1 || count > MAX_UNITS)
    throw new Error(`startManyControllers: count must be 1–${MAX_UNITS} (127.0.0.10–254), not ${count}.`);
  const user = options.user ?? 'admin';
  const password = options.password ?? '1234';
  const base: EmulatorOptions = { ...QUICK_EMULATOR, meters: false, ...options.emulator, user, password };
  const concurrency = options.concurrency ?? 25;
  let lastError: unknown = null;
  for (let attempt = 0; attempt < 5; attempt++) {
    const units: LabUnit[] = [];
    const closeAll = () => Promise.all(units.map((u) => u.emulator.close().catch(() => undefined)));
    try {
      const first = await startOne(0, 0);
      units.push(first);
      const port = Number(new URL(first.url).port);
      for (let next = 1; next < count; next += concurrency) {
        const batch = Array.from({ length: Math.min(concurrency, count - next) }, (_, k) => next + k);
        const started = await Promise.allSettled(batch.map((i) => startOne(i, port)));
        for (const s of started) if (s.status === 'fulfilled') units.push(s.value);
        const failed = started.find((s) => s.status === 'rejected');
        if (failed) throw failed.reason;
      }
      units.sort((a, b) => a.name.localeCompare(b.name));
      return {
        units,
        port,
        range: `127.0.0.${FIRST_HOST}-${FIRST_HOST + count - 1}:${port}`,
        user,
        password,
        close: async () => void (await closeAll()),
      };
    } catch (error) {
      await closeAll();
      if (!isAddressInUse(error)) throw error;
      lastError = error;
    }
  }
  throw new Error(`startManyControllers: no port was free on all ${count} addresses: ${String(lastError)}`);

  async function startOne(i: number, port: number): Promise<LabUnit> {
    const host = `127.0.0.${FIRST_HOST + i}`;
    const name = unitName(i);
    const emulator = await startEmulator({ ...base, name, host, port });
    return { name, host, url: emulator.url, emulator };
  }
}

/**
 * Save every unit in `core` (digest login, each under its unit's name, with `tags(i)` if given), a few at
 * a time, in unit order (tab order). Setup for tests that are not about adding controllers.
 */
export async function saveAll(
  core: Core,
  lab: ManyControllers,
  tags?: (index: number) => string[] | undefined,
  concurrency = 20,
): Promise<ControllerSummary[]> {
  const saved: ControllerSummary[] = new Array<ControllerSummary>(lab.units.length);
  for (let next = 0; next < lab.units.length; next += concurrency) {
    const batch = lab.units.slice(next, next + concurrency);
    await Promise.all(
      batch.map(async (unit, k) => {
        const t = tags?.(next + k);
        saved[next + k] = await core.handlers['controllers/add']({
          name: unit.name,
          url: unit.url,
          auth: { kind: 'digest', user: lab.user, password: lab.password },
          ...(t ? { tags: t } : {}),
        });
      }),
    );
  }
  // Saved a batch at a time, they finished in any order: put the tabs back in unit order.
  return core.handlers['controllers/reorder']({ ids: saved.map((c) => c.id) });
}
