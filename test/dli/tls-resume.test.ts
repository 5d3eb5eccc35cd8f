/**
 * HTTPS against a unit that closes every connection: TLS sessions are resumed, so only the first request
 * pays a full handshake; the pin still decides every full handshake; a unit that never resumes works as
 * before (one checked full handshake per connection, never more).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeFingerprint } from '../../src-main/dli/tls-pin';
import { closingHttps, type ClosingHttps } from './closing-https';
import { client, emulator, failure } from './helpers';

const fronts: ClosingHttps[] = [];

async function front(resume = true): Promise<ClosingHttps> {
  const unit = await emulator();
  const made = await closingHttps(unit.url, { resume });
  fronts.push(made);
  return made;
}

afterEach(async () => {
  await Promise.all(fronts.splice(0).map((f) => f.close()));
});

describe('TLS session resumption', () => {
  it('a unit that closes every connection: one full handshake for 20 requests, the rest resumed', async () => {
    const https = await front();
    const c = client(https.url, { fingerprint: https.fingerprint });
    for (let i = 0; i < 20; i++) expect(await c.outlets.list()).toHaveLength(8);
    // Digest: the first request is challenged, so 21 answers; each on its own connection.
    expect(https.requests).toBeGreaterThanOrEqual(20);
    expect(https.handshakes.full + https.handshakes.resumed).toBe(https.requests);
    expect(https.handshakes.full).toBe(1);
  });

  it('a unit that never resumes: still works, one checked full handshake per connection', async () => {
    const https = await front(false);
    const c = client(https.url, { fingerprint: https.fingerprint });
    for (let i = 0; i < 5; i++) expect(await c.outlets.list()).toHaveLength(8);
    expect(https.handshakes.resumed).toBe(0);
    expect(https.handshakes.full).toBe(https.requests);
  });

  it('a new certificate is refused on the next connection although a session was kept', async () => {
    const https = await front();
    const pinned = normalizeFingerprint(https.fingerprint);
    const c = client(https.url, { fingerprint: pinned, name: 'Bench A' });
    await c.outlets.list();
    await c.outlets.list();
    expect(https.handshakes.resumed).toBeGreaterThan(0);
    const replaced = normalizeFingerprint(await https.changeCertificate());
    const error = await failure(c.outlets.list());
    expect(error.code).toBe('TLS_CHANGED');
    expect(error.detail).toEqual({ fingerprint: replaced, pinned });
  });
});
