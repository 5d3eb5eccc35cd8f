/** An emulator per test for the CLI tests, and the login options for it. */
import { afterEach, expect } from 'vitest';
import { startEmulator, type EmulatorOptions, type RunningEmulator } from '../../src-main/emulator';
// The `node-real-unit` project (vitest.config.ts) runs these tests against the real-unit profile.
import { profileOptions } from '../core/harness';

export const PASSWORD = 'pw-4711';
const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

export async function unit(options: EmulatorOptions = {}): Promise<RunningEmulator> {
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
