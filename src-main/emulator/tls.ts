import { X509Certificate } from 'node:crypto';
import { isIP } from 'node:net';

export interface GeneratedCertificate {
  key: string;
  cert: string;
  /** SHA-256 fingerprint, upper-case hex with colons (as Node and Plugboard print it). */
  fingerprint256: string;
}

/**
 * A fresh self-signed certificate, as a controller makes for itself: valid for the listening host and
 * for 127.0.0.1 / localhost, so a client that pins it can also verify it properly.
 */
export async function generateCertificate(commonName: string, host: string): Promise<GeneratedCertificate> {
  const { generate } = await import('selfsigned');
  const altNames: { type: 2 | 7; value?: string; ip?: string }[] = [
    { type: 2, value: 'localhost' },
    { type: 7, ip: '127.0.0.1' },
  ];
  if (isIP(host) && host !== '127.0.0.1') altNames.push({ type: 7, ip: host });
  else if (!isIP(host) && host !== 'localhost') altNames.push({ type: 2, value: host });
  const notAfterDate = new Date();
  notAfterDate.setFullYear(notAfterDate.getFullYear() + 10);
  const pems = await generate(
    [
      { name: 'commonName', value: commonName },
      { name: 'organizationName', value: 'Digital Loggers Inc.' },
    ],
    {
      keySize: 2048,
      algorithm: 'sha256',
      notAfterDate,
      extensions: [
        { name: 'basicConstraints', cA: false },
        { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
        { name: 'extKeyUsage', serverAuth: true },
        { name: 'subjectAltName', altNames },
      ],
    },
  );
  return {
    key: pems.private,
    cert: pems.cert,
    fingerprint256: new X509Certificate(pems.cert).fingerprint256,
  };
}
