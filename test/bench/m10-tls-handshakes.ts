/**
 * 10. Full TLS handshakes per 100 HTTPS requests against a unit that closes every connection
 * (`Connection: close`, reference §13): an HTTPS front (`test/dli/closing-https.ts`) before an in-process
 * emulator counts each `secureConnection` server-side as full or resumed. Baseline: the same front
 * refusing resumption (no session tickets), which costs what Plugboard paid before it resumed sessions:
 * one full handshake per connection.
 */
import { DliClient } from '../../src-main/dli/client';
import { closingHttps, type ClosingHttps } from '../dli/closing-https';
import { PASSWORD, USER } from './baselines';
import { onCleanup } from './cleanup';
import { startLocal } from './emulators';
import { row, type Row } from './results';

const REQUESTS = 100;

interface Count {
  full: number;
  requests: number;
}

/** `REQUESTS` outlet reads through a fresh client (its first request is challenged: one more answer). */
async function count(front: ClosingHttps): Promise<Count> {
  const client = new DliClient({
    url: front.url,
    credentials: { kind: 'digest', user: USER, password: PASSWORD },
    fingerprint: front.fingerprint,
    timeoutMs: 60_000,
  });
  try {
    for (let i = 0; i < REQUESTS; i++) await client.outlets.list();
  } finally {
    await client.close();
  }
  return { full: front.handshakes.full, requests: front.requests };
}

export async function measureTlsHandshakes(): Promise<Row[]> {
  const { emulators, close } = await startLocal(1);
  const target = emulators[0]!.url;
  const resuming = await closingHttps(target);
  const refusing = await closingHttps(target, { resume: false });
  const stopFronts = onCleanup(async () => {
    await Promise.allSettled([resuming.close(), refusing.close()]);
  });
  try {
    const plugboard = await count(resuming);
    const baseline = await count(refusing);
    const per100 = (c: Count) => (c.full / c.requests) * 100;
    return [
      row({
        measurement: 10,
        figure: 'full TLS handshakes per 100 HTTPS requests',
        value: per100(plugboard),
        unit: '',
        target: '≤ 2',
        met: per100(plugboard) <= 2,
        baselines: [
          { name: 'no session resumption (before; a unit that never resumes)', value: per100(baseline) },
        ],
        note: `${plugboard.requests} requests, each on a new connection (the front closes every one); counted server-side; against a unit that never resumes Plugboard paid ${baseline.full} full handshakes for ${baseline.requests} requests.`,
      }),
    ];
  } finally {
    await stopFronts();
    await close();
  }
}
