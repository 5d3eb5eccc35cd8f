/**
 * The run's shared keychain (keychain-global-setup.ts) as a test uses it. Tests share the Secret Service
 * but never each other's secrets: a test that lists or counts what the keychain holds uses a service
 * name of its own (keychainService), and Plugboard's own service holds only accounts named after random
 * controller ids, which no two tests share. Each child still gets its own HOME and config folder.
 */
import { randomBytes } from 'node:crypto';
import { inject } from 'vitest';
import { keyringHome } from './keychain-session';

/** The bus address of the shared unlocked keychain; fails, saying why, when the run has none. */
export function sharedKeychainBus(): string {
  const provided = inject('keychain');
  if (!provided)
    throw new Error(
      'No shared keychain: this file runs in the `system` project, whose global setup starts it.',
    );
  if ('problem' in provided)
    throw new Error(
      `No shared keychain for this run (${provided.problem}). It needs dbus-run-session and gnome-keyring: apt-get install -y dbus gnome-keyring.`,
    );
  return provided.bus;
}

/** Environment for a child using the shared keychain, with `home` as its HOME. */
export function sharedKeychainEnv(home: string): NodeJS.ProcessEnv {
  return { ...process.env, ...keyringHome(home), DBUS_SESSION_BUS_ADDRESS: sharedKeychainBus() };
}

/** Let keytar in this process use the shared keychain (libsecret reads the bus address on first use). */
export function useSharedKeychainHere(): void {
  process.env.DBUS_SESSION_BUS_ADDRESS = sharedKeychainBus();
}

/** A keychain service name no other test uses: what it holds is this test's alone. */
export function keychainService(label: string): string {
  return `Plugboard test ${label} ${randomBytes(4).toString('hex')}`;
}
