/** The JSON API over HTTPS on a lab network: a self-signed certificate made once and kept, its fingerprint printed. */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TLSSocket } from 'node:tls';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startApiListener } from '../../src-main/serve/api';
import type { RunningListener } from '../../src-main/serve/listener';
import { loadTls } from '../../src-main/serve/tls';
import { cleanUp, newCore } from '../core/harness';
import { apiContext } from './api-services';

const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-serve-tls-'));
const listeners: RunningListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close(1_000)));
  await cleanUp();
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function fingerprintSeen(origin: string): Promise<{ status: number; fingerprint: string }> {
  return new Promise((resolve, reject) => {
    const req = request(new URL('/api/v1/controllers', origin), { rejectUnauthorized: false }, (res) => {
      const fingerprint = (res.socket as TLSSocket).getPeerCertificate().fingerprint256;
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, fingerprint }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('TLS for the API', () => {
  it('serves HTTPS with a self-signed certificate kept in the config folder, the same after a restart', async () => {
    const tls = await loadTls({ kind: 'self-signed' }, dir, ['127.0.0.1']);
    expect(tls).not.toBeNull();
    expect(statSync(path.join(dir, 'serve-tls', 'key.pem')).mode & 0o777).toBe(0o600);
    const listener = await startApiListener(apiContext(newCore().core, { tls }));
    listeners.push(listener);
    expect(listener.lines[0]).toContain(`TLS certificate SHA-256 ${tls!.fingerprint256}`);
    const origin = /api: (https:\/\/[^/]+)\//.exec(listener.lines[0]!)![1]!;
    expect(await fingerprintSeen(origin)).toEqual({ status: 200, fingerprint: tls!.fingerprint256 });

    const again = await loadTls({ kind: 'self-signed' }, dir, ['127.0.0.1']);
    expect(again!.fingerprint256).toBe(tls!.fingerprint256);
  });

  it('refuses a certificate file that is not PEM, saying which flag to fix', async () => {
    await expect(
      loadTls(
        {
          kind: 'files',
          cert: path.join(dir, 'serve-tls', 'key.pem'),
          key: path.join(dir, 'serve-tls', 'key.pem'),
        },
        dir,
        [],
      ),
    ).rejects.toThrow(/not a PEM certificate/);
    await expect(
      loadTls({ kind: 'files', cert: path.join(dir, 'nope.pem'), key: path.join(dir, 'nope.pem') }, dir, []),
    ).rejects.toMatchObject({
      action: expect.stringContaining('--tls-cert'),
    });
  });
});
