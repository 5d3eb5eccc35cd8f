/**
 * An emulator per test for the CLI tests, and the login options for it. In the real-unit profile when
 * the file runs in the `real-unit` project (its opening comment says so: test/projects.ts).
 */
import { afterEach, expect } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
import { profileOptions } from '../core/harness';

export const PASSWORD = 'pw-4711';
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

export async function emulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const started = await startEmulator({
    password: PASSWORD,
    cycleDelay: 0.2,
    sequenceDelay: 0,
    rebootSeconds: 0.3,
    ...profileOptions(),
    ...options,
  });
  for (let i = 0; i < started.device.outletCount; i++) started.device.setOutlet(i, { state: false });
  running.push(started);
  return started;
}

export const login = (e: RunningEmulator): string[] => [
  '--url',
  e.url,
  '--user',
  'admin',
  '--password',
  PASSWORD,
];

export function expectNoPassword(...texts: string[]): void {
  for (const text of texts) expect(text).not.toContain(PASSWORD);
}

/**
 * The emulator's profiles, for a system file to run its scenarios in each: the real-unit project reruns
 * only fast files. The real-unit one is test/core/harness.ts's `profileOptions()` in that project.
 */
export const PROFILES: [string, EmulatorOptions][] = [
  ['fast profile', {}],
  ['real-unit profile', { realUnit: true, slowOutletsMs: 300 }],
];
