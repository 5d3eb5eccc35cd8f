/**
 * Bulk add (issue 16 item 7): 30 emulated controllers on 127.0.0.10–39 (real digest logins) added with
 * one call and one password, their secrets in a real Secret Service (the run's shared gnome-keyring,
 * under a keychain service of this test's own); one unit with another password refused alone; the
 * password offered to the selected units only.
 */
import { afterEach, beforeAll, expect, it } from 'vitest';
import type { BulkAddResult, ControllerSummary } from '../../../src-preload/contract';
import { openSecret } from '../../../src-main/core/saved/registry-envelope';
import { KeytarSecretStore, controllerAccount } from '../../../src-main/secrets';
import type { RunningEmulator } from '../../../src-main/emulator';
import { keychainService, useSharedKeychainHere } from '../../secrets/shared-keychain';
import { cleanUp, emulator, newCore, until } from '../harness';
import { recordingProxy, type RecordingProxy } from '../recording-proxy';

const proxies: RecordingProxy[] = [];

// keytar (libsecret) finds the Secret Service on this bus: the run's private keyring, not the machine's.
beforeAll(useSharedKeychainHere);
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await cleanUp();
});

it('adds 30 controllers with one password; the one with another password is refused alone', async () => {
  const units: RunningEmulator[] = [];
  for (let i = 10; i < 40; i++) {
    units.push(
      await emulator({
        host: `127.0.0.${i}`,
        name: `Rack ${i}`,
        ...(i === 23 ? { password: 'not-the-same' } : {}),
      }),
    );
  }
  // Two controllers that were found but not selected: nothing may reach them.
  for (let i = 0; i < 2; i++)
    proxies.push(await recordingProxy((await emulator({ name: `Spare ${i}` })).url));
  const secrets = new KeytarSecretStore({ service: keychainService('bulk') });
  const h = newCore({ secrets });

  const results = await h.ok<BulkAddResult[]>('controllers/addMany', {
    units: units.map((u) => ({ url: u.url, tags: ['rack 7'] })),
    auth: { kind: 'digest', user: 'admin', password: '1234' },
  });

  expect(results.map((r) => r.url)).toEqual(units.map((u) => u.url));
  const refused = results.filter((r) => r.error);
  expect(refused.map((r) => r.url)).toEqual([units[13]!.url]);
  expect(refused[0]!.added).toBeNull();
  expect(refused[0]!.error!.code).toBe('AUTH_FAILED');
  expect(refused[0]!.error!.message).toContain('"admin"');
  expect(refused[0]!.error!.message).not.toContain('1234');

  const saved = await h.ok<ControllerSummary[]>('controllers/list', {});
  expect(saved).toHaveLength(29);
  // Saved in the order selected (the tab order), whichever answered first.
  expect(saved.map((c) => c.url)).toEqual(units.filter((_, i) => i !== 13).map((u) => u.url));
  for (const result of results.filter((r) => r.added)) {
    const summary = result.added!;
    expect(summary.name).toBe(`Rack ${new URL(summary.url).hostname.split('.')[3]}`);
    expect(summary.tags).toEqual(['rack 7']);
    expect(summary.hasSecret).toBe(true);
    // In the real keychain, bound to its own address and login.
    const stored = openSecret((await secrets.get(controllerAccount(summary.id)))!);
    expect(stored.secret).toBe('1234');
    expect(stored.place).toEqual({ url: summary.url, auth: 'digest', user: 'admin', fingerprint: null });
  }
  // The refused unit was offered the login once (a challenge, then one refused answer) and nothing was
  // stored for it; the units nobody selected were never asked.
  expect(units[13]!.device.stats.unauthorized).toBe(2);
  expect((await secrets.accounts()).length).toBe(29);
  for (const spare of proxies) {
    expect(spare.requests).toBe(0);
    expect(spare.authorizations).toEqual([]);
  }
  expect(h.activity().filter((e) => e.action === 'added to Plugboard')).toHaveLength(29);
  const last = results.at(-1)!.added!;
  await until(h, last.id, (s) => s.status === 'online', 20_000);
});
