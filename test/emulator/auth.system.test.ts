import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { challenge, curl, header, json, plain, python, rawDigest } from './clients';

let emu: RunningEmulator;
let base: string;

beforeAll(async () => {
  emu = await startEmulator({
    serial: 'LPC92601002528',
    cycleDelay: 0.3,
    sequenceDelay: 0.05,
    nonceLifetime: 300,
  });
  base = emu.url;
});
afterAll(() => emu.close());

describe('digest authentication like a unit', () => {
  it('challenges with the upper-case RFC 2069 DIGEST form: realm "DLI <serial>", a 16-character nonce, no qop', async () => {
    const answer = await curl(`${base}/restapi/relay/outlets/0/state/`, { auth: 'none' });
    expect(answer.status).toBe(401);
    const value = header(answer, 'www-authenticate') ?? '';
    expect(value).toMatch(/^DIGEST realm="DLI LPC92601002528", nonce="[A-Za-z0-9]{16}"$/);
    expect(json(answer)).toEqual({ error: 'unauthorized', message: expect.any(String) });
  });

  it('gives every challenge a new nonce', async () => {
    const a = await challenge(base);
    const b = await challenge(base);
    expect(a.nonce).not.toBe(b.nonce);
  });

  it('logs curl --digest in (the vendor-documented client)', async () => {
    const answer = await curl(`${base}/restapi/relay/outlets/0/name/`);
    expect(answer.exitCode).toBe(0);
    expect(answer.status).toBe(200);
    expect(json(answer)).toBe('Outlet 1');
  });

  it("logs Python's urllib HTTPDigestAuthHandler in", async () => {
    const [answer] = await python({ base, requests: [{ path: '/restapi/config/serial/' }] });
    expect(answer?.status).toBe(200);
    expect(JSON.parse(answer!.body)).toBe('LPC92601002528');
  });

  it('refuses a wrong password or an unknown user with 401 and a fresh challenge', async () => {
    const wrong = await curl(`${base}/restapi/relay/outlets/0/state/`, { password: 'nope' });
    expect(wrong.status).toBe(401);
    expect(header(wrong, 'www-authenticate')).toMatch(/^DIGEST realm=/);
    const [unknown] = await python({
      base,
      requests: [{ path: '/restapi/relay/outlets/0/state/', user: 'mallory' }],
    });
    expect(unknown?.status).toBe(401);
  });

  it('also accepts an RFC 2617 qop=auth response to the RFC 2069 challenge', async () => {
    const { nonce, realm } = await challenge(base);
    const answer = await rawDigest(`${base}/restapi/config/version/`, { nonce, realm, qop: true });
    expect(answer.status).toBe(200);
    expect(json(answer)).toBe('1.12.14.0');
  });

  it('answers an expired or forgotten nonce with 401 stale=true when the password was right, plain 401 when not', async () => {
    const { nonce, realm } = await challenge(base);
    expect((await rawDigest(`${base}/restapi/config/version/`, { nonce, realm })).status).toBe(200);
    emu.device.expireNonces();
    const stale = await rawDigest(`${base}/restapi/config/version/`, { nonce, realm });
    expect(stale.status).toBe(401);
    expect(header(stale, 'www-authenticate')).toMatch(/, stale=true$/);
    const wrong = await rawDigest(`${base}/restapi/config/version/`, { nonce, realm, password: 'bad' });
    expect(wrong.status).toBe(401);
    expect(header(wrong, 'www-authenticate')).not.toMatch(/stale/);
  });

  it('lets nonces expire after the nonce lifetime', async () => {
    const short = await startEmulator({ nonceLifetime: 0.3 });
    try {
      const { nonce, realm } = await challenge(short.url);
      expect((await rawDigest(`${short.url}/restapi/cred/`, { nonce, realm })).status).toBe(200);
      await new Promise((r) => setTimeout(r, 600));
      const stale = await rawDigest(`${short.url}/restapi/cred/`, { nonce, realm });
      expect(stale.status).toBe(401);
      expect(header(stale, 'www-authenticate')).toContain('stale=true');
      // A stock client simply answers the new challenge.
      expect((await curl(`${short.url}/restapi/cred/`)).status).toBe(200);
    } finally {
      await short.close();
    }
  });

  it('rejects a digest uri that does not match the request with 400', async () => {
    const { nonce, realm } = await challenge(base);
    const answer = await rawDigest(`${base}/restapi/config/version/`, {
      nonce,
      realm,
      uri: '/restapi/config/serial/',
    });
    expect(answer.status).toBe(400);
    expect(json(answer)).toMatchObject({ error: 'bad_authorization' });
  });

  it('offers qop="auth" with --qop, and curl and Python answer it', async () => {
    const qop = await startEmulator({ qop: true });
    try {
      const { raw } = await challenge(qop.url);
      expect(raw).toMatch(/^DIGEST realm="DLI [A-Za-z0-9]+", nonce="[A-Za-z0-9]{16}", qop="auth"$/);
      expect((await curl(`${qop.url}/restapi/relay/outlets/1/state/`)).status).toBe(200);
      const [answer] = await python({
        base: qop.url,
        requests: [{ path: '/restapi/relay/outlets/1/state/' }],
      });
      expect(answer?.status).toBe(200);
      // The RFC 2069 form is still accepted.
      const { nonce, realm } = await challenge(qop.url);
      expect((await rawDigest(`${qop.url}/restapi/cred/`, { nonce, realm })).status).toBe(200);
    } finally {
      await qop.close();
    }
  });
});

describe('Basic authentication', () => {
  it('is refused while config/allow_plaintext_logins is false, accepted once it is true', async () => {
    const before = await curl(`${base}/restapi/cred/`, { auth: 'basic' });
    expect(before.status).toBe(401);
    const enable = await curl(`${base}/restapi/config/allow_plaintext_logins/`, {
      method: 'PUT',
      headers: { 'X-CSRF': 'x' },
      data: 'value=true',
    });
    expect(enable.status).toBe(204);
    const after = await curl(`${base}/restapi/cred/`, { auth: 'basic' });
    expect(after.status).toBe(200);
    expect(json(after)).toMatchObject({ name: 'admin', is_admin: true });
    expect((await curl(`${base}/restapi/cred/`, { auth: 'basic', password: 'wrong' })).status).toBe(401);
    await curl(`${base}/restapi/config/allow_plaintext_logins/`, {
      method: 'PUT',
      headers: { 'X-CSRF': 'x' },
      data: 'value=false',
    });
    expect((await curl(`${base}/restapi/cred/`, { auth: 'basic' })).status).toBe(401);
  });
});

describe('Bearer access tokens (firmware ≥ 1.10)', () => {
  it('creates a client with PUT auth/clients/<id>/ and lets its token in, within its scopes', async () => {
    const secret = randomBytes(32);
    const hash = createHash('sha256').update(secret).digest('hex');
    const client = {
      name: 'mybot',
      redirect_urls: {},
      scopes: {
        '/relay/outlets/=0,1/=state,transient_state/?access=modify': true,
        '/relay/outlets/?access=read': true,
      },
      refresh_tokens: {},
      access_tokens: { [hash]: {} },
    };
    const put = await curl(`${base}/restapi/auth/clients/mybot/`, {
      method: 'PUT',
      headers: { 'X-CSRF': 'x', 'Content-Type': 'application/json' },
      data: JSON.stringify(client),
    });
    expect(put.status).toBe(204);
    const bearer = { Authorization: `Bearer mybot.${secret.toString('base64url')}` };
    const read = await curl(`${base}/restapi/relay/outlets/all;/name/`, { auth: 'none', headers: bearer });
    expect(read.status).toBe(207);
    const write = await curl(`${base}/restapi/relay/outlets/=0,1,2/transient_state/`, {
      auth: 'none',
      method: 'PUT',
      headers: { ...bearer, 'X-CSRF': 'x' },
      data: 'value=false',
    });
    expect(write.status).toBe(207);
    expect(json(write)).toEqual([null, null, { status: 403, error: 'forbidden' }]);
    expect(emu.device.outlet(0).transientState).toBe(false);
    const config = await curl(`${base}/restapi/config/serial/`, { auth: 'none', headers: bearer });
    expect(config.status).toBe(403);
    const cred = await curl(`${base}/restapi/cred/`, { auth: 'none', headers: bearer });
    expect(json(cred)).toMatchObject({
      name: 'mybot',
      is_admin: false,
      outlet_access: [true, true, false, false, false, false, false, false],
    });
    const forged = await curl(`${base}/restapi/relay/outlets/0/state/`, {
      auth: 'none',
      headers: { Authorization: `Bearer mybot.${randomBytes(32).toString('base64url')}` },
    });
    expect(forged.status).toBe(401);
    const listed = await curl(`${base}/restapi/auth/clients/`);
    expect(json(listed)).toMatchObject({ mybot: { name: 'mybot', access_tokens: { [hash]: {} } } });
    expect(
      (await curl(`${base}/restapi/auth/clients/mybot/`, { method: 'DELETE', headers: { 'X-CSRF': 'x' } }))
        .status,
    ).toBe(204);
    expect(
      (await curl(`${base}/restapi/relay/outlets/0/state/`, { auth: 'none', headers: bearer })).status,
    ).toBe(401);
  });

  it('gives a token with a scope over the whole tree administrator rights', async () => {
    const token = emu.device.issueToken('root', ['/?access=modify']);
    const answer = await curl(`${base}/restapi/config/ssh_enabled/`, {
      auth: 'none',
      method: 'PUT',
      headers: { Authorization: `Bearer ${token}`, 'X-CSRF': 'x' },
      data: 'value=true',
    });
    expect(answer.status).toBe(204);
    expect(emu.device.config().sshEnabled).toBe(true);
  });

  it('rejects malformed client bodies with 400', async () => {
    const answer = await curl(`${base}/restapi/auth/clients/bad/`, {
      method: 'PUT',
      headers: { 'X-CSRF': 'x', 'Content-Type': 'application/json' },
      data: JSON.stringify({ name: 'x', scopes: { 'relay/?access=everything': true } }),
    });
    expect(answer.status).toBe(400);
    expect(json(answer)).toMatchObject({ error: 'bad_value', message: expect.stringContaining('scope') });
  });

  it('has no tokens before firmware 1.10', async () => {
    const old = await startEmulator({ firmware: '1.9.8.0' });
    try {
      expect((await curl(`${old.url}/restapi/auth/clients/`)).status).toBe(404);
      const answer = await plain(`${old.url}/restapi/cred/`, {
        headers: { Authorization: 'Bearer x.aGVsbG8' },
      });
      expect(answer.status).toBe(401);
    } finally {
      await old.close();
    }
  });
});

describe('users who may not log in', () => {
  it('refuses a user whose is_allowed is false with 403', async () => {
    emu.device.addUser({ name: 'parked', password: 'pw', isAllowed: false });
    const answer = await curl(`${base}/restapi/cred/`, { user: 'parked', password: 'pw' });
    expect(answer.status).toBe(403);
    expect(json(answer)).toMatchObject({ error: 'not_allowed' });
  });
});
