/** Secrets for a service: systemd credentials, read-only, in front of the keychain (or memory). */
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  controllerAccount,
  credentialName,
  MemorySecretStore,
  SystemdCredentialStore,
} from '../../src-main/secrets';

const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-creds-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('systemd credentials', () => {
  it('names one credential per saved controller after its keychain account', () => {
    expect(credentialName(controllerAccount('c1a2b3c4d'))).toBe('plugboard.controller.c1a2b3c4d');
  });

  it('reads a credential, falls back for the rest, and never writes to the credentials folder', async () => {
    writeFileSync(path.join(dir, 'plugboard.controller.c1'), 'from-systemd\n');
    const keychain = new MemorySecretStore();
    await keychain.set('controller:c2', 'from-keychain');
    const store = new SystemdCredentialStore(dir, keychain);
    expect(await store.get('controller:c1')).toBe('from-systemd');
    expect(await store.get('controller:c2')).toBe('from-keychain');
    expect(await store.get('controller:c3')).toBeNull();

    // Re-binding a credential's secret (registry-envelope.ts) stays in memory for this run.
    await store.set('controller:c1', '{"v":1,"secret":"from-systemd"}');
    expect(await store.get('controller:c1')).toBe('{"v":1,"secret":"from-systemd"}');
    expect(readFileSync(path.join(dir, 'plugboard.controller.c1'), 'utf8')).toBe('from-systemd\n');
    // A secret typed for a controller without a credential goes to the keychain.
    await store.set('controller:c4', 'typed');
    expect(await keychain.get('controller:c4')).toBe('typed');
    expect(readdirSync(dir)).toEqual(['plugboard.controller.c1']);
    // Credentials are the operator's: never listed for a sweep, never deleted.
    expect((await store.accounts()).sort()).toEqual(['controller:c2', 'controller:c4']);
    await store.delete('controller:c1');
    expect(await store.get('controller:c1')).toBe('from-systemd');
  });
});
