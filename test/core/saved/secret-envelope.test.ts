/**
 * The keychain keeps each secret bound to the place it was saved (or last confirmed) for, so the rule
 * holds whatever happens to the shared config.json: a hand edit that moves a saved controller to a
 * recording listener on another 127.0.0.1 port makes the running Core (which follows the file) send it
 * no secret, until the person confirms or types it again. The same for the CLI, with the real keychain:
 * secret-envelope-cli.system.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { ControllerState, ControllerSummary } from '../../../src-preload/contract';
import { openConfStore } from '../../../src-main/core/saved/conf-store';
import { openSecret } from '../../../src-main/core/saved/registry-envelope';
import { MemorySecretStore } from '../../../src-main/secrets';
import { cleanUp, emulator, newCore, until, type CoreHarness } from '../harness';
import { digestAs, editByHand } from '../hand-edit';
import { recordingProxy, type RecordingProxy } from '../recording-proxy';

const PASSWORD = 'Bound-Pw-4471';
const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-envelope-'));
const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await cleanUp();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function proxyTo(target: string): Promise<RecordingProxy> {
  const proxy = await recordingProxy(target);
  proxies.push(proxy);
  return proxy;
}

/** Polling stopped because the stored secret is bound elsewhere (nothing was sent). */
const refusedElsewhere = (s: ControllerState) =>
  s.status === 'auth_failed' && s.problem?.detail?.confirmSecret === true;

/** A Core with its own config folder and a memory keychain, and "Bench" added and online at `url`. */
async function coreWithBench(url: string, folder: string) {
  const dir = mkdtempSync(path.join(scratch, folder));
  const secrets = new MemorySecretStore();
  const h: CoreHarness = newCore({ store: openConfStore(dir), secrets });
  await h.core.ready;
  const summary = await h.ok<ControllerSummary>('controllers/add', {
    url,
    name: 'Bench',
    auth: { kind: 'digest', user: 'admin', password: PASSWORD },
  });
  await until(h, summary.id, (s) => s.status === 'online');
  return { dir, h, secrets, summary };
}

describe('a secret bound to its place in the keychain', () => {
  it('the running Core sends nothing to an address config.json was changed to by hand, until confirmed or typed again', async () => {
    const emu = await emulator({ password: PASSWORD });
    const home = await proxyTo(emu.url);
    const elsewhere = await proxyTo(emu.url);
    const { dir, h, secrets, summary } = await coreWithBench(home.url, 'core-');
    expect(home.authorizations.some(digestAs('admin'))).toBe(true);

    editByHand(dir, (c) => (c.url = elsewhere.url));
    const refused = await until(h, summary.id, refusedElsewhere);
    expect(refused.problem!.message).toContain(`was saved for ${home.url}`);
    expect(refused.problem!.message).toContain('sent it nowhere');
    expect(elsewhere.authorizations).toEqual([]);
    // Renaming sends nothing; changing the login without the secret needs the same confirmation.
    await h.ok('controllers/update', { id: summary.id, name: 'Bench moved' });
    const unconfirmed = await h.call('controllers/update', {
      id: summary.id,
      auth: { kind: 'digest', user: 'ops' },
    });
    expect(unconfirmed).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', detail: { confirmSecret: true } },
    });
    expect(elsewhere.authorizations).toEqual([]);

    // The person confirms the new place: the secret goes there, and stays bound to it.
    await h.ok('controllers/update', { id: summary.id, reuseSecret: true });
    await until(h, summary.id, (s) => s.status === 'online');
    expect(elsewhere.authorizations.some(digestAs('admin'))).toBe(true);
    const envelope = JSON.parse((await secrets.get(`controller:${summary.id}`))!) as {
      for: { origin: string };
    };
    expect(envelope.for.origin).toBe(elsewhere.url);

    // Moved back by hand: the old place gets nothing either, until the password is typed again.
    const sentHome = home.authorizations.length;
    editByHand(dir, (c) => (c.url = home.url));
    await until(h, summary.id, refusedElsewhere);
    expect(home.authorizations.length).toBe(sentHome);
    await h.ok('controllers/update', {
      id: summary.id,
      auth: { kind: 'digest', user: 'admin', password: PASSWORD },
    });
    await until(h, summary.id, (s) => s.status === 'online');
    expect(home.authorizations.length).toBeGreaterThan(sentHome);
    expect(openSecret((await secrets.get(`controller:${summary.id}`))!)).toEqual({
      secret: PASSWORD,
      place: { url: home.url, auth: 'digest', user: 'admin', fingerprint: null },
    });
    expect(h.logged.join('\n')).not.toContain(PASSWORD);
  }, 60_000);

  it('a user or login method changed by hand gets nothing either', async () => {
    const emu = await emulator({ password: PASSWORD });
    const home = await proxyTo(emu.url);
    const { dir, h, summary } = await coreWithBench(home.url, 'login-');
    editByHand(dir, (c) => {
      c.auth = 'basic';
      c.user = 'guest';
    });
    // Saved for digest: never sent as Basic, so only typing it again helps (no confirmation offered).
    const refused = await until(
      h,
      summary.id,
      (s) => s.status === 'auth_failed' && s.problem?.detail?.confirmSecret === false,
    );
    expect(refused.problem!.detail!.changed).toBe('the login method (digest → basic)');
    const confirmed = await h.call('controllers/update', { id: summary.id, reuseSecret: true });
    expect(confirmed).toMatchObject({ ok: false, error: { code: 'BAD_INPUT' } });
    // Polls before the edit was noticed went as before (digest, admin); nothing went as Basic or as guest.
    expect(home.authorizations.filter((a) => !digestAs('admin')(a))).toEqual([]);
  }, 60_000);
});
