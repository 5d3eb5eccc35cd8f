/**
 * A lab service in process for the desk's tests: a real Core with its lab store (SQLite) and accounts,
 * an emulated unit it polls, and its `api` listener over HTTPS with a self-signed certificate (the
 * fingerprint a desk pins), which can be stopped and started again on the same port. And desks: a
 * desk's own Core with its config store and keychain (memory, or the one given), over which
 * `createDesk` answers `labs/*`, with every event it pushes recorded and waited for.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EventName, EventPayload } from '../../src-preload/contract';
import type { LabSummary, Result, Role } from '../../src-preload/model';
import { MemoryStore, openLabRecords, type Clock, type LabRecords } from '../../src-main/core/index';
import { openConfStore } from '../../src-main/core/store';
import { createDesk, type Desk, type DeskOptions } from '../../src-main/desk';
import { dispatch } from '../../src-main/core/index';
import type { RunningEmulator } from '../../src-main/emulator';
import { MemorySecretStore, type SecretStore } from '../../src-main/secrets';
import { startApiListener } from '../../src-main/serve/api';
import type { RunningListener } from '../../src-main/serve/listener';
import { ServiceMetrics } from '../../src-main/serve/metrics';
import { loadTls } from '../../src-main/serve/tls';
import type { TlsMaterial } from '../../src-main/serve/listener';
import { addController, emulator, newCore, type CoreHarness } from '../core/harness';
import { apiContext } from '../serve/api-services';

export const PASSWORD = 'a long enough password';

/** Counts the requests the listener answered (a refused pin never reaches it). */
export class CountingMetrics extends ServiceMetrics {
  answered = 0;
  override request(listener: string, status: number): void {
    this.answered++;
    super.request(listener, status);
  }
}

export interface Lab {
  h: CoreHarness;
  emu: RunningEmulator;
  controllerId: string;
  origin: string;
  fingerprint: string;
  metrics: CountingMetrics;
  /** Stop the api listener (the service "stops"; its Core and unit go on). */
  stop(): Promise<void>;
  /** Start it again on the same port with the same certificate. */
  start(): Promise<void>;
  /**
   * Another service of the same lab (a listener on the same Core and store, so the same sessions),
   * whose status says it is a standby and names this one as the leader: its origin.
   */
  standby(name: string): Promise<string>;
}

export type Cleanup = () => Promise<void>;

export async function startLab(
  cleanups: Cleanup[],
  accounts: { name: string; role: Role }[],
  options: { clock?: Clock } = {},
): Promise<Lab> {
  const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-desk-lab-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  const records: LabRecords = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {});
  cleanups.push(() => records.store.close().catch(() => undefined));
  const h = newCore({
    store: openConfStore(dir),
    dataDir: dir,
    records,
    secrets: new MemorySecretStore(),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  const emu = await emulator({ initialStates: Array(8).fill(false) });
  const controllerId = (await addController(h, emu, { name: 'Bench A' })).id;
  for (const account of accounts)
    await h.core.accounts!.add({ ...account, scope: { kind: 'all' }, password: PASSWORD });
  const tls: TlsMaterial = (await loadTls({ kind: 'self-signed' }, dir, ['127.0.0.1']))!;
  const metrics = new CountingMetrics();
  let port = 0;
  let listener: RunningListener | null = null;
  const standby = async (name: string): Promise<string> => {
    const other = await startApiListener(
      apiContext(h.core, {
        tls,
        role: () => ({
          service: name,
          role: 'standby',
          leader: 'leader',
          leaderAddress: `https://127.0.0.1:${port}`,
        }),
      }),
    );
    cleanups.push(() => other.close(1_000));
    return /api: (https:\/\/[^/]+)\//.exec(other.lines[0]!)![1]!;
  };
  const start = async (): Promise<void> => {
    listener = await startApiListener(
      apiContext(h.core, {
        spec: { name: 'api', host: '127.0.0.1', port },
        tls,
        metrics,
        role: () => ({ service: 'leader', role: 'leader', leader: 'leader', leaderAddress: null }),
      }),
    );
    port = Number(new URL(/api: (https:\/\/[^/]+)\//.exec(listener.lines[0]!)![1]!).port);
  };
  const stop = async (): Promise<void> => {
    await listener?.close(1_000);
    listener = null;
  };
  await start();
  cleanups.push(stop);
  return {
    h,
    emu,
    controllerId,
    origin: `https://127.0.0.1:${port}`,
    fingerprint: tls.fingerprint256,
    metrics,
    stop,
    start,
    standby,
  };
}

export interface DeskHarness {
  desk: Desk;
  store: MemoryStore;
  secrets: SecretStore;
  own: CoreHarness;
  events: { name: EventName; payload: unknown }[];
  /** A call through the dispatcher as the window (input validated), answered as Result data. */
  call<T = unknown>(name: string, input: unknown, door?: 'window' | 'tray'): Promise<Result<T>>;
  ok<T = unknown>(name: string, input: unknown, door?: 'window' | 'tray'): Promise<T>;
  /** Resolves with the first pushed event of `name` (from now on or already recorded) that `match`es. */
  next<K extends EventName>(
    name: K,
    match: (payload: EventPayload<K>) => boolean,
    from?: number,
  ): Promise<EventPayload<K>>;
  /** Resolves once the lab's pushed summary matches (among the events from index `from` on). */
  lab(id: string, match: (summary: LabSummary) => boolean, from?: number): Promise<LabSummary>;
}

export function startDesk(
  cleanups: Cleanup[],
  options: Partial<Omit<DeskOptions, 'core'>> = {},
): DeskHarness {
  const own = newCore();
  const store = new MemoryStore();
  const secrets = options.secrets ?? new MemorySecretStore();
  const desk = createDesk({
    core: own.core,
    store,
    secrets,
    log: () => undefined,
    user: 'desk-user',
    ...options,
  });
  cleanups.push(() => desk.dispose());
  const events: DeskHarness['events'] = [];
  const waiters = new Set<() => void>();
  desk.subscribe((name, payload) => {
    events.push({ name, payload });
    for (const wake of [...waiters]) wake();
  });
  const call = <T>(name: string, input: unknown, door: 'window' | 'tray' = 'window') =>
    dispatch(
      door === 'window' ? desk.handlers : desk.handlersAs('tray'),
      name,
      input,
      () => undefined,
    ) as Promise<Result<T>>;
  const next = <K extends EventName>(name: K, match: (payload: EventPayload<K>) => boolean, from = 0) =>
    new Promise<EventPayload<K>>((resolve) => {
      let seen = from;
      const look = (): void => {
        for (; seen < events.length; seen++) {
          const event = events[seen]!;
          if (event.name === name && match(event.payload as EventPayload<K>)) {
            waiters.delete(look);
            resolve(event.payload as EventPayload<K>);
            return;
          }
        }
      };
      waiters.add(look);
      look();
    });
  return {
    desk,
    store,
    secrets,
    own,
    events,
    call,
    async ok<T>(name: string, input: unknown, door: 'window' | 'tray' = 'window') {
      const result = await call<T>(name, input, door);
      if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`);
      return result.value;
    },
    next,
    lab: (id, match, from = 0) =>
      next('labs/changed', (labs) => labs.some((lab) => lab.id === id && match(lab)), from).then((labs) =>
        labs.find((lab) => lab.id === id)!,
      ),
  };
}
