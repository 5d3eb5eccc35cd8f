/**
 * Bulk add (issue 16 item 7): 30 emulated controllers on 127.0.0.10–39 (real digest logins) added with
 * one call and one password, their secrets in a real Secret Service (a private gnome-keyring); one unit
 * with another password refused alone; the password offered to the selected units only.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import type { BulkAddResult, ControllerSummary } from '../../src-preload/contract';
import { openSecret } from '../../src-main/core/registry-envelope';
import { KeytarSecretStore, controllerAccount } from '../../src-main/secrets';

import type { RunningEmulator } from '../../src-main/emulator';
import { cleanUp, emulator, newCore, until } from './harness';
import { startKeyring, type Keyring } from './process-harness';
import { recordingProxy, type RecordingProxy } from './recording-proxy';

// Up to 32 emulators and self-signed certificates each: allow for a busy machine.
vi.setConfig({ testTimeout: 90_000 });

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-bulk-'));
let keyring: Keyring;
const proxies: RecordingProxy[] = [];

beforeAll(async () => {
  keyring = await startKeyring(scratch);
  // keytar (libsecret) finds the Secret Service on this bus: the private keyring, not the machine's.
  process.env.DBUS_SESSION_BUS_ADDRESS = keyring.env.DBUS_SESSION_BUS_ADDRESS;
});
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await cleanUp();
});
afterAll(async () => {
  await keyring.stop();
  rmSync(scratch, { recursive: true, force: true });
});

function keychain(): KeytarSecretStore {
  return new KeytarSecretStore({ service: `Plugboard bulk test ${process.pid}` });
}

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
  const secrets = keychain();
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

it('returns every HTTPS certificate to accept together, then adds them pinned', async () => {
  const units = await Promise.all([10, 11, 12].map((i) => emulator({ host: `127.0.0.${i}`, tls: true })));
  const h = newCore({ secrets: keychain() });
  const auth = { kind: 'digest', user: 'admin', password: '1234' };
  const first = await h.ok<BulkAddResult[]>('controllers/addMany', {
    units: units.map((u) => ({ url: u.url })),
    auth,
  });
  expect(first.map((r) => r.error?.code)).toEqual(['TLS_UNTRUSTED', 'TLS_UNTRUSTED', 'TLS_UNTRUSTED']);
  const fingerprints = first.map((r) => r.error!.detail!.fingerprint as string);
  expect(new Set(fingerprints).size).toBe(3);
  expect(await h.ok<ControllerSummary[]>('controllers/list', {})).toEqual([]);
  // Nothing was logged in to before the certificates were accepted.
  for (const unit of units) expect(unit.device.stats.unauthorized).toBe(0);

  const second = await h.ok<BulkAddResult[]>('controllers/addMany', {
    units: first.map((r, i) => ({ url: r.url, fingerprint: fingerprints[i] })),
    auth,
  });
  expect(second.map((r) => r.error)).toEqual([null, null, null]);
  expect(second.map((r) => r.added!.fingerprint)).toEqual(fingerprints);
  // A fingerprint given for the wrong unit is refused for that unit only.
  const other = await emulator({ host: '127.0.0.13', tls: true });
  const third = await h.ok<BulkAddResult[]>('controllers/addMany', {
    units: [{ url: other.url, fingerprint: fingerprints[0] }],
    auth,
  });
  expect(third[0]!.error!.code).toBe('TLS_CHANGED');
});

it('refuses per unit: listed twice, already saved, not a controller, a user without a password', async () => {
  const [a, b, c] = await Promise.all([10, 11, 12].map((i) => emulator({ host: `127.0.0.${i}` })));
  c!.device.addUser({ name: 'bob', password: 'bobs-pw', isAdmin: true });
  const h = newCore({ secrets: keychain() });
  const auth = { kind: 'digest', user: 'admin', password: '1234' };
  await h.ok('controllers/addMany', { units: [{ url: a!.url, name: 'Bench A' }], auth });
  const { createServer } = await import('node:http');
  const web = createServer((_req, res) => {
    res.writeHead(403, { 'content-type': 'text/html' });
    res.end('<html><title>403 Forbidden</title></html>');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const webUrl = `http://127.0.0.1:${(web.address() as { port: number }).port}`;
  try {
    const results = await h.ok<BulkAddResult[]>('controllers/addMany', {
      units: [
        { url: a!.url },
        { url: b!.url },
        { url: `${b!.url}/` },
        { url: webUrl },
        { url: c!.url, user: 'bob' },
        { url: c!.url.replace('127.0.0.12', '127.0.0.14'), user: 'carol' },
      ],
      auth,
      passwords: { bob: 'bobs-pw' },
    });
    expect(results.map((r) => r.error?.code ?? 'added')).toEqual([
      'BAD_INPUT',
      'added',
      'BAD_INPUT',
      'NOT_A_CONTROLLER',
      'added',
      'BAD_INPUT',
    ]);
    expect(results[0]!.error!.message).toContain('already saved as "Bench A"');
    expect(results[2]!.error!.message).toContain('listed twice');
    expect(results[5]!.error!.message).toContain('No password was given for user "carol"');
    expect(results[4]!.added!.user).toBe('bob');
  } finally {
    await new Promise((resolve) => web.close(resolve));
  }
});
