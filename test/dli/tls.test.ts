/** HTTPS trust on first use against the emulator's self-signed certificate. */
import { describe, expect, it } from 'vitest';
import { normalizeFingerprint } from '../../src-main/dli/tls-pin';
import { client, emulator, failure } from './helpers';

describe('HTTPS pinning', () => {
  it('first use: TLS_UNTRUSTED with the certificate fingerprint, and no HTTP request sent', async () => {
    const unit = await emulator({ tls: true });
    expect(unit.url.startsWith('https://')).toBe(true);
    const c = client(unit.url, { name: 'Bench A' });
    const error = await failure(c.describe());
    expect(error.code).toBe('TLS_UNTRUSTED');
    const expected = normalizeFingerprint(unit.device.certificate!.fingerprint256);
    expect(error.detail).toEqual({ fingerprint: expected });
    expect(error.message).toContain(expected);
    expect(c.certificate).toBe(expected);
    expect(unit.device.stats.requests).toBe(0);
  });

  it('with the accepted fingerprint: works, and describe() reports it', async () => {
    const unit = await emulator({ tls: true });
    const fingerprint = unit.device.certificate!.fingerprint256;
    // Any spelling of the same fingerprint is accepted (lower case, no colons).
    const c = client(unit.url, { fingerprint: fingerprint.replace(/:/g, '').toLowerCase() });
    const description = await c.describe();
    expect(description.fingerprint).toBe(normalizeFingerprint(fingerprint));
    expect(await c.outlets.list()).toHaveLength(8);
  });

  it('a changed certificate: TLS_CHANGED naming both fingerprints, on new connections', async () => {
    const unit = await emulator({ tls: true });
    const pinned = normalizeFingerprint(unit.device.certificate!.fingerprint256);
    const c = client(unit.url, { fingerprint: pinned, name: 'Bench A' });
    await c.outlets.list();
    const replaced = normalizeFingerprint(await unit.device.changeCertificate());
    const fresh = client(unit.url, { fingerprint: pinned, name: 'Bench A' });
    const error = await failure(fresh.outlets.list());
    expect(error.code).toBe('TLS_CHANGED');
    expect(error.detail).toEqual({ fingerprint: replaced, pinned });
    expect(error.message).toContain('certificate of Bench A changed');
    const accepted = client(unit.url, { fingerprint: replaced });
    expect(await accepted.outlets.list()).toHaveLength(8);
  });

  it('a wrong pinned fingerprint never gets credentials sent', async () => {
    const unit = await emulator({ tls: true });
    const c = client(unit.url, { fingerprint: 'AB'.repeat(32) });
    expect((await failure(c.outlets.list())).code).toBe('TLS_CHANGED');
    expect(unit.device.stats.requests).toBe(0);
  });

  it('http:// against an HTTPS-only port is UNREACHABLE with a hint', async () => {
    const unit = await emulator({ tls: true });
    const error = await failure(
      client(unit.url.replace('https:', 'http:')).outlets.list({ timeoutMs: 3000 }),
    );
    expect(error.code).toBe('UNREACHABLE');
    expect(error.action).toContain('use an https:// address');
  });
});
