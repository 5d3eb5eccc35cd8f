/** The Authorization header, checked against an independent computation of RFC 2069 and RFC 2617. */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DigestAuth } from '../../src-main/dli/digest-auth';

const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

function fields(header: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const match of header.matchAll(/(\w+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]+))/g)) {
    out[match[1]!] = match[2] ?? match[3]!;
  }
  return out;
}

describe('DigestAuth', () => {
  it("answers the real units' upper-case RFC 2069 challenge without qop, nc or cnonce", () => {
    const auth = new DigestAuth('admin', '1234');
    expect(auth.header('GET', '/restapi/')).toBeNull();
    expect(auth.accept('DIGEST realm="DLI LPC92601002528", nonce="NZAeQHhoCNifFjFa"')).toBe(true);
    const header = auth.header('GET', '/restapi/relay/outlets/')!;
    expect(header.startsWith('Digest ')).toBe(true);
    const f = fields(header);
    expect(f).not.toHaveProperty('nc');
    expect(f).not.toHaveProperty('cnonce');
    expect(f).not.toHaveProperty('qop');
    expect(f).not.toHaveProperty('algorithm');
    expect(f.realm).toBe('DLI LPC92601002528');
    const ha1 = md5('admin:DLI LPC92601002528:1234');
    const ha2 = md5('GET:/restapi/relay/outlets/');
    expect(f.response).toBe(md5(`${ha1}:NZAeQHhoCNifFjFa:${ha2}`));
  });

  it('answers RFC 2617 qop=auth with a hex nonce count that restarts with each nonce', () => {
    const auth = new DigestAuth('Mufasa', 'Circle Of Life');
    auth.accept(
      'Digest realm="testrealm@host.com", qop="auth,auth-int", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", opaque="5ccc069c403ebaf9f0171e9517f40e41"',
    );
    let last = '';
    for (let i = 1; i <= 17; i++) last = auth.header('GET', '/dir/index.html')!;
    const f = fields(last);
    expect(f.nc).toBe('00000011');
    expect(f.qop).toBe('auth');
    expect(f.opaque).toBe('5ccc069c403ebaf9f0171e9517f40e41');
    const ha1 = md5('Mufasa:testrealm@host.com:Circle Of Life');
    const ha2 = md5('GET:/dir/index.html');
    expect(f.response).toBe(
      md5(`${ha1}:dcd98b7102dd2f0e8b11d0f600bfb0c093:00000011:${f.cnonce}:auth:${ha2}`),
    );
    auth.accept('Digest realm="testrealm@host.com", qop="auth", nonce="fresh", stale=true');
    expect(fields(auth.header('PUT', '/x/')!).nc).toBe('00000001');
  });

  it('refuses challenges it cannot answer', () => {
    const auth = new DigestAuth('a', 'b');
    expect(auth.accept('Basic realm="x"')).toBe(false);
    expect(auth.accept(null)).toBe(false);
    expect(auth.accept('Digest realm="x", nonce="n", algorithm=SHA-999')).toBe(false);
    expect(auth.accept('Digest realm="x", nonce="n", qop="auth-int"')).toBe(false);
    expect(auth.ready).toBe(false);
  });

  it('quotes user names safely', () => {
    const auth = new DigestAuth('we"ird', 'pw');
    auth.accept('Digest realm="r", nonce="n"');
    expect(auth.header('GET', '/')).toContain('username="we\\"ird"');
  });
});
