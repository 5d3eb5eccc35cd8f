/**
 * The JSON API's certificate on a lab network: the operator's (--tls-cert/--tls-key), or one Plugboard
 * makes once with `selfsigned` and keeps in `<configDir>/serve-tls/` (owner-only, like everything in the
 * config folder; never written through a link), so its fingerprint — printed at every start, for clients to pin — stays the same across restarts.
 */
import { X509Certificate } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import path from 'node:path';
import { WRITE_NO_LINK } from '../shared/config-folder';
import { PlugboardError } from '../shared/errors';
import type { TlsMaterial } from './listener';
import type { TlsChoice } from './options';

export async function loadTls(
  choice: TlsChoice,
  configDir: string,
  hosts: string[],
): Promise<TlsMaterial | null> {
  if (choice.kind === 'off') return null;
  if (choice.kind === 'files') return fromFiles(choice.cert, choice.key);
  const dir = path.join(configDir, 'serve-tls');
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  const kept = await fromFiles(cert, key).catch(() => null);
  if (kept) return kept;
  const made = await selfSigned(hosts);
  await mkdir(dir, { recursive: true, mode: 0o700 });
  await writeFile(key, made.key, { mode: 0o600, flag: WRITE_NO_LINK });
  await writeFile(cert, made.cert, { mode: 0o600, flag: WRITE_NO_LINK });
  return made;
}

async function fromFiles(certFile: string, keyFile: string): Promise<TlsMaterial> {
  let cert: string;
  let key: string;
  try {
    [cert, key] = await Promise.all([readFile(certFile, 'utf8'), readFile(keyFile, 'utf8')]);
  } catch (error) {
    throw new PlugboardError(
      'BAD_INPUT',
      `The TLS certificate or key could not be read (${(error as Error).message}).`,
      undefined,
      {
        action: 'Check --tls-cert and --tls-key: PEM files the service can read.',
      },
    );
  }
  let fingerprint256: string;
  try {
    fingerprint256 = new X509Certificate(cert).fingerprint256;
  } catch {
    throw new PlugboardError('BAD_INPUT', `${certFile} is not a PEM certificate.`, undefined, {
      action: 'Give a PEM certificate with --tls-cert.',
    });
  }
  return { cert, key, fingerprint256 };
}

async function selfSigned(hosts: string[]): Promise<TlsMaterial> {
  const { generate } = await import('selfsigned');
  const { isIP } = await import('node:net');
  const names = [...new Set(['localhost', hostname(), ...hosts])];
  const altNames = names.map((name) =>
    isIP(name) ? { type: 7 as const, ip: name } : { type: 2 as const, value: name },
  );
  const notAfterDate = new Date();
  notAfterDate.setFullYear(notAfterDate.getFullYear() + 10);
  const pems = await generate([{ name: 'commonName', value: `Plugboard on ${hostname()}` }], {
    keySize: 2048,
    algorithm: 'sha256',
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      { name: 'subjectAltName', altNames },
    ],
  });
  return {
    key: pems.private,
    cert: pems.cert,
    fingerprint256: new X509Certificate(pems.cert).fingerprint256,
  };
}
