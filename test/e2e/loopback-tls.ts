/**
 * What a browser test needs to run a lab service over HTTPS on 127.0.0.1: a self-signed certificate
 * for that address (written 0600 into a scratch folder), and a free port so that a service stopped and
 * started again is found at the same address.
 */
import { writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';

/** A certificate and key for 127.0.0.1, as files in `dir`: the paths for --tls-cert and --tls-key. */
export async function loopbackCertificate(dir: string): Promise<{ cert: string; key: string }> {
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: '127.0.0.1' }], {
    keySize: 2048,
    algorithm: 'sha256',
    extensions: [{ name: 'subjectAltName', altNames: [{ type: 7, ip: '127.0.0.1' }] }],
  });
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  writeFileSync(cert, pems.cert, { mode: 0o600 });
  writeFileSync(key, pems.private, { mode: 0o600 });
  return { cert, key };
}

/** A port on 127.0.0.1 nothing listens on now. */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port;
}
