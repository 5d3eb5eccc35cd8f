/**
 * Global setup of the `system` project: one unlocked keychain session for the whole run, instead of a
 * `dbus-run-session` and a gnome-keyring per scenario. Its bus address is provided as `keychain`
 * (shared-keychain.ts reads it); without gnome-keyring or dbus the run goes on, and the tests that need
 * the keychain fail saying why.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { startKeychainSession, type KeychainSession } from './keychain-session';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const home = mkdtempSync(path.join(tmpdir(), 'plugboard-keychain-'));
  let session: KeychainSession | null = null;
  try {
    session = await startKeychainSession(home);
    project.provide('keychain', { bus: session.bus });
  } catch (error) {
    project.provide('keychain', { problem: error instanceof Error ? error.message : String(error) });
  }
  return async () => {
    await session?.stop();
    rmSync(home, { recursive: true, force: true });
  };
}
