/**
 * A stored secret goes only to the place it was saved for (address, scheme, login method, user,
 * certificate). Raw listeners on 127.0.0.1 record every Authorization header: a changed place receives
 * none until the person confirms (`reuseSecret`) or types the secret again.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ContractError, ControllerSummary, Result } from '../../../src-preload/contract';
import { cleanUp, emulator, newCore, until, type CoreHarness } from '../harness';
import { recordingProxy, type RecordingProxy } from '../recording-proxy';

const PASSWORD = 'Stored-Pw-7719';
const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await cleanUp();
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

async function proxyTo(target: string, options: { tls?: boolean } = {}): Promise<RecordingProxy> {
  const proxy = await recordingProxy(target, options);
  proxies.push(proxy);
  return proxy;
}

function refusal(result: Result<unknown>): ContractError {
  if (result.ok) throw new Error('expected the call to be refused');
  return result.error;
}

/** A controller saved (digest, admin) for `place`, online. */
async function saved(
  h: CoreHarness,
  place: RecordingProxy,
  fingerprint?: string,
): Promise<ControllerSummary> {
  const summary = await h.ok<ControllerSummary>('controllers/add', {
    url: place.url,
    name: 'Bench',
    auth: { kind: 'digest', user: 'admin', password: PASSWORD },
    ...(fingerprint ? { fingerprint } : {}),
  });
  await until(h, summary.id, (s) => s.status === 'online');
  return summary;
}

const basicOf = (user: string) => `Basic ${Buffer.from(`${user}:${PASSWORD}`).toString('base64')}`;

describe('a stored secret goes only where it was saved for', () => {
  it('a new address (with or without a new login method) gets nothing until the person confirms', async () => {
    const emu = await emulator({ password: PASSWORD });
    const home = await proxyTo(emu.url);
    const elsewhere = await proxyTo(emu.url);
    const h = newCore();
    const summary = await saved(h, home);

    const basic = refusal(
      await h.call('controllers/update', {
        id: summary.id,
        url: elsewhere.url,
        auth: { kind: 'basic', user: 'admin' },
      }),
    );
    expect(basic.code).toBe('BAD_INPUT');
    expect(basic.message).toMatch(/never sent as Basic.*type the password again/);
    const moved = refusal(await h.call('controllers/update', { id: summary.id, url: elsewhere.url }));
    expect(moved).toMatchObject({ code: 'BAD_INPUT', detail: { confirmSecret: true } });
    expect(moved.message).toContain(
      `you changed the address (${new URL(home.url).host} → ${new URL(elsewhere.url).host})`,
    );
    expect(moved.message).toMatch(/Type the password again, or confirm/);
    expect(moved.message).not.toContain(PASSWORD);

    // Nothing reached the new address, nothing changed, and the session still polls the saved one.
    expect(elsewhere.requests).toBe(0);
    expect((await h.ok<ControllerSummary[]>('controllers/list', {}))[0]!.url).toBe(home.url);
    const before = home.requests;
    await h.ok('controllers/refresh', { id: summary.id });
    expect(home.requests).toBeGreaterThan(before);
    expect(elsewhere.requests).toBe(0);

    // Confirmed: now (and only now) the stored password goes there, as digest.
    const confirmed = await h.ok<ControllerSummary>('controllers/update', {
      id: summary.id,
      url: elsewhere.url,
      reuseSecret: true,
    });
    expect(confirmed.url).toBe(elsewhere.url);
    expect(elsewhere.authorizations.length).toBeGreaterThan(0);
    expect(elsewhere.authorizations.every((a) => a.startsWith('Digest '))).toBe(true);
    for (const place of [home, elsewhere]) expect(place.authorizations).not.toContain(basicOf('admin'));
  });

  it('never sends a password saved for digest as Basic, and needs a confirmation for another user', async () => {
    const emu = await emulator({ password: PASSWORD });
    const home = await proxyTo(emu.url);
    const h = newCore();
    const summary = await saved(h, home);

    const downgrade = refusal(
      await h.call('controllers/update', {
        id: summary.id,
        auth: { kind: 'basic', user: 'admin' },
        reuseSecret: true,
      }),
    );
    expect(downgrade).toMatchObject({ code: 'BAD_INPUT', detail: { confirmSecret: false } });
    const guest = refusal(
      await h.call('controllers/update', { id: summary.id, auth: { kind: 'digest', user: 'guest' } }),
    );
    expect(guest.message).toContain('you changed the user (admin → guest)');
    await h.ok('controllers/refresh', { id: summary.id });
    expect(home.authorizations.length).toBeGreaterThan(0);
    expect(home.authorizations.some((a) => a.startsWith('Basic '))).toBe(false);
    expect(home.authorizations.some((a) => a.includes('username="guest"'))).toBe(false);
    expect((await h.ok<ControllerSummary[]>('controllers/list', {}))[0]).toMatchObject({
      auth: 'digest',
      user: 'admin',
    });
  });

  it('a new certificate gets the stored password only when the person confirms it or types it again', async () => {
    const emu = await emulator({ password: PASSWORD });
    const front = await proxyTo(emu.url, { tls: true });
    const h = newCore();
    const summary = await saved(h, front, front.fingerprint!);
    await h.ok('settings/set', { pollIntervalMs: 500 });

    const replaced = await front.changeCertificate();
    await until(h, summary.id, (s) => s.status === 'tls_changed');
    const sent = front.authorizations.length;
    const unconfirmed = refusal(
      await h.call('controllers/trustCertificate', { id: summary.id, fingerprint: replaced }),
    );
    expect(unconfirmed).toMatchObject({ code: 'BAD_INPUT', detail: { confirmSecret: true } });
    expect(unconfirmed.message).toContain('you changed the certificate');
    await h.ok('controllers/refresh', { id: summary.id });
    expect(h.state(summary.id)!.status).toBe('tls_changed');
    expect(front.authorizations.length).toBe(sent);

    // Typed again, but wrong: refused by the controller, nothing saved.
    const wrong = refusal(
      await h.call('controllers/trustCertificate', { id: summary.id, fingerprint: replaced, secret: 'nope' }),
    );
    expect(wrong.code).toBe('AUTH_FAILED');
    expect((await h.ok<ControllerSummary[]>('controllers/list', {}))[0]!.fingerprint).toBe(
      summary.fingerprint,
    );

    await h.ok('controllers/trustCertificate', { id: summary.id, fingerprint: replaced, reuseSecret: true });
    await until(h, summary.id, (s) => s.status === 'online');
    expect(front.authorizations.length).toBeGreaterThan(sent);
  });

  it('a demo controller’s password (in memory) does not follow a changed address either', async () => {
    const h = newCore();
    const [demo] = await h.ok<ControllerSummary[]>('demo/start', {});
    const elsewhere = await proxyTo(demo!.url);
    const moved = refusal(await h.call('controllers/update', { id: demo!.id, url: elsewhere.url }));
    expect(moved).toMatchObject({ code: 'BAD_INPUT', detail: { confirmSecret: true } });
    await h.ok('controllers/refresh', { id: demo!.id });
    expect(elsewhere.requests).toBe(0);
  });
});
