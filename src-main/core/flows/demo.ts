/**
 * "Try the demo": a few software controllers (the emulator) running inside Plugboard, different in model
 * and firmware, added as demo controllers. Their passwords live here, in memory — never in the keychain —
 * and they do not survive a restart (the Core drops stale ones at start).
 */
import { randomBytes } from 'node:crypto';
import type { EmulatorOptions, RunningEmulator } from '../../emulator/index';

export interface DemoSpec {
  /** The name in Plugboard's tabs. */
  name: string;
  emulator: EmulatorOptions;
  outletNames: string[];
  /** 1-based outlets marked critical / locked, to show what those look like. */
  critical?: number[];
  locked?: number[];
}

export const DEMO_SPECS: readonly DemoSpec[] = [
  {
    name: 'Demo bench (LPC9, meters)',
    emulator: {
      model: 'LPC9',
      firmware: '1.12.14.0',
      name: 'Demo Bench',
      meters: true,
      cycleDelay: 3,
      sequenceDelay: 0.5,
      rebootSeconds: 5,
    },
    outletNames: [
      'Router',
      'Switch',
      'Scope',
      'Signal generator',
      'DUT power',
      'Logic analyser',
      'Bench lamp',
      'Fan',
    ],
    critical: [1],
  },
  {
    name: 'Demo rack (EPCR5, 1.10)',
    emulator: {
      model: 'EPCR5',
      firmware: '1.10.15.0',
      name: 'Demo Rack',
      meters: false,
      cycleDelay: 5,
      sequenceDelay: 1,
      serial: `EPCR5${digits(6)}`,
    },
    outletNames: [
      'Server A',
      'Server B',
      'NAS',
      'KVM',
      'Console server',
      'PDU test load',
      'Spare',
      'Door lock',
    ],
    locked: [8],
  },
  {
    name: 'Demo lab (LPC7, old 1.9)',
    emulator: {
      model: 'LPC7',
      firmware: '1.9.2.0',
      name: 'Demo Lab',
      meters: false,
      cycleDelay: 2,
      serial: `LPC7${digits(6)}`,
    },
    outletNames: [
      'Soldering station',
      'Fume extractor',
      'Microscope light',
      'Charger',
      'Radio',
      'Heater',
      'Kettle',
      'Printer',
    ],
  },
];

function digits(count: number): string {
  return Array.from(randomBytes(count), (byte) => String(byte % 10)).join('');
}

export interface RunningDemo {
  spec: DemoSpec;
  emulator: RunningEmulator;
  password: string;
}

/** Start the demo's emulators (on 127.0.0.1, ephemeral ports), named and marked as their specs say. */
export async function startDemoEmulators(specs: readonly DemoSpec[] = DEMO_SPECS): Promise<RunningDemo[]> {
  // Loaded only when the demo starts: the emulator is not part of a normal start.
  const { startEmulator } = await import('../../emulator/index');
  const started = await Promise.allSettled(
    specs.map(async (spec) => {
      const password = randomBytes(12).toString('base64url');
      const emulator = await startEmulator({
        ...spec.emulator,
        host: '127.0.0.1',
        port: 0,
        user: 'admin',
        password,
      });
      spec.outletNames.forEach((name, i) => {
        if (i < emulator.device.outletCount) emulator.device.setOutlet(i, { name });
      });
      for (const outlet of spec.critical ?? []) emulator.device.setCritical(outlet - 1, true);
      for (const outlet of spec.locked ?? []) emulator.device.lock(outlet - 1);
      return { spec, emulator, password };
    }),
  );
  const running = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failure = started.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failure) {
    await Promise.all(running.map((demo) => demo.emulator.close()));
    throw failure.reason;
  }
  return running;
}
