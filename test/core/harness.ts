/**
 * The real Core against real emulated controllers on 127.0.0.1: helpers to start both, add a controller
 * the way the window does, and wait for what the Core pushes.
 */
import { vi } from 'vitest';
import type {
  ActivityEntry,
  ControllerState,
  ControllerSummary,
  EventName,
  EventPayload,
  Result,
} from '../../src-preload/contract';
import { createCore, type Core, type CoreOptions, type Notice } from '../../src-main/core/index';
import { dispatch } from '../../src-main/core/handlers/dispatch';
import { MemoryStore } from '../../src-main/core/kernel/ports';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
import { MemorySecretStore } from '../../src-main/secrets';
import { openSecret } from '../../src-main/core/saved/registry-envelope';

export interface Recorded {
  name: EventName;
  payload: unknown;
}

export interface CoreHarness {
  core: Core;
  store: MemoryStore;
  secrets: MemorySecretStore;
  events: Recorded[];
  notices: Notice[];
  logged: string[];
  /** What the Core logged with the error it gave (a cause and its stack), in order. */
  causes: { message: string; error: unknown }[];
  /** A contract call through the real dispatcher (input validated), answered as Result data. */
  call<T = unknown>(name: string, input: unknown): Promise<Result<T>>;
  /** Like `call`, but unwraps the value and fails the test on an error result. */
  ok<T = unknown>(name: string, input: unknown): Promise<T>;
  /** The latest pushed state of a controller. */
  state(id: string): ControllerState | undefined;
  /** Every event of a name, in order. */
  all<K extends EventName>(name: K): EventPayload<K>[];
  activity(): ActivityEntry[];
}

const running: { emulators: RunningEmulator[]; cores: Core[] } = { emulators: [], cores: [] };

/**
 * Set by the `real-unit` Vitest project (vitest.config.ts): the marked files then run against the
 * emulator's real-unit profile (src-main/emulator/README.md), slow `relay/outlets/` scaled down to 300 ms.
 */
export const REAL_UNIT = process.env.PLUGBOARD_TEST_REAL_UNIT === '1';
/** The real-unit profile's options (empty in the fast run); a test's own options still win. */
export const profileOptions = (): EmulatorOptions =>
  REAL_UNIT ? { realUnit: true, slowOutletListMs: 300 } : {};

/**
 * The key of a controller's meter as the emulator names it: the simple `buses.0.voltage` form, or, with
 * the object-model meter map (real-unit profile), the platform-specific id of the entry fed by it
 * (`mains_voltage`). Tests read keys through this instead of hard-coding the fast profile's.
 */
export function meterKey(emu: RunningEmulator, simple: string): string {
  if (emu.device.behaviours.meterMap !== 'object-model') return simple;
  const names: Record<string, string> = {
    'buses.0.voltage': 'AC voltage',
    'buses.0.current': 'AC current',
    'environment.temperature': 'Internal temperature',
  };
  const found = Object.entries(emu.device.meterMap()).find(([, meter]) => meter.name === names[simple]);
  if (!found) throw new Error(`No object-model meter for ${simple}`);
  return found[0];
}

/** A software controller with short delays (so pending changes settle quickly). */
export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const started = await startEmulator({
    cycleDelay: 0.3,
    sequenceDelay: 0.05,
    rebootSeconds: 1,
    ...profileOptions(),
    ...options,
  });
  running.emulators.push(started);
  return started;
}

export function newCore(options: Partial<CoreOptions> = {}): CoreHarness {
  const store = new MemoryStore();
  const secrets = new MemorySecretStore();
  const notices: Notice[] = [];
  const logged: string[] = [];
  const causes: CoreHarness['causes'] = [];
  const log = (message: string, error?: unknown) => {
    logged.push(message);
    if (error !== undefined) causes.push({ message, error });
  };
  const core = createCore({
    shell: 'test',
    version: '0.0.0-test',
    store,
    secrets,
    notify: (notice) => notices.push(notice),
    log,
    ...options,
  });
  running.cores.push(core);
  const events: Recorded[] = [];
  core.subscribe((name, payload) => events.push({ name, payload }));
  const call = <T>(name: string, input: unknown) =>
    dispatch(core.handlers, name, input, log) as Promise<Result<T>>;
  return {
    core,
    store,
    secrets,
    events,
    notices,
    logged,
    causes,
    call,
    async ok<T>(name: string, input: unknown): Promise<T> {
      const result = await call<T>(name, input);
      if (!result.ok) throw new Error(`${name} failed: ${result.error.code}: ${result.error.message}`);
      return result.value;
    },
    state: (id) =>
      events
        .filter((e) => e.name === 'state/changed')
        .map((e) => e.payload as ControllerState)
        .findLast((s) => s.id === id),
    all: <K extends EventName>(name: K) =>
      events.filter((e) => e.name === name).map((e) => e.payload as EventPayload<K>),
    activity: () => events.filter((e) => e.name === 'activity/added').map((e) => e.payload as ActivityEntry),
  };
}

/** Add an emulator as the window does (admin / 1234 unless said otherwise) and wait until it is online. */
export async function addController(
  h: CoreHarness,
  emu: RunningEmulator,
  options: { name?: string; user?: string; password?: string } = {},
): Promise<ControllerSummary> {
  const summary = await h.ok<ControllerSummary>('controllers/add', {
    url: emu.url,
    name: options.name ?? `Bench ${running.emulators.indexOf(emu) + 1}`,
    auth: { kind: 'digest', user: options.user ?? 'admin', password: options.password ?? '1234' },
  });
  await until(h, summary.id, (s) => s.status === 'online');
  return summary;
}

/** An emulator with "bob", not an administrator, who may switch outlets 1 and 2; added to a new Core as bob. */
export async function addedAsNonAdmin(): Promise<{ emu: RunningEmulator; h: CoreHarness; id: string }> {
  const emu = await emulator();
  emu.device.addUser({
    name: 'bob',
    password: 'bobs-pw',
    isAdmin: false,
    outletAccess: [true, true, false, false, false, false, false, false],
  });
  const h = newCore();
  const { id } = await addController(h, emu, { user: 'bob', password: 'bobs-pw' });
  return { emu, h, id };
}

/** Wait (real time) until the latest pushed state of `id` satisfies `check`; returns that state. */
export async function until(
  h: CoreHarness,
  id: string,
  check: (state: ControllerState) => boolean,
  timeout = 15_000,
): Promise<ControllerState> {
  return vi.waitFor(
    () => {
      const state = h.state(id);
      if (!state || !check(state))
        throw new Error(`state of ${id} not there yet: ${JSON.stringify(state?.status)}`);
      return state;
    },
    { timeout, interval: 20 },
  );
}

/** Stop every Core and emulator the test started (call in afterEach). */
export async function cleanUp(): Promise<void> {
  await Promise.all(running.cores.splice(0).map((core) => core.dispose()));
  await Promise.all(running.emulators.splice(0).map((emu) => emu.close()));
}

/** The secret the keychain holds under `account` (its envelope opened: registry-envelope.ts), or null. */
export async function keychainSecret(
  secrets: { get(account: string): Promise<string | null> },
  account: string,
): Promise<string | null> {
  const raw = await secrets.get(account);
  return raw === null ? null : openSecret(raw).secret;
}
