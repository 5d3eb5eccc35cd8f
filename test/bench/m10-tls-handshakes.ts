/**
 * 10. Full TLS handshakes per 100 HTTPS requests against a unit that closes every connection: the
 * emulator's real-unit profile with `tls: true` (`Connection: close` on every answer, reference §13;
 * its slow outlet list off here), which counts each TLS handshake server-side as full or resumed
 * (`device.tlsHandshakes()`). Baseline: the same profile refusing resumption (`tlsResumption: false`,
 * ticket keys rotated per connection), which costs what Plugboard paid before it resumed sessions: one
 * full handshake per connection.
 */
import { DliClient } from '../../src-main/dli/client';
import type { RunningEmulator } from '../../src-main/emulator/index';
import { PASSWORD, USER } from './baselines';
import { startLocal } from './emulators';
import { row, type Row } from './results';

const REQUESTS = 100;

interface Count {
  full: number;
  requests: number;
}

/** `REQUESTS` outlet reads through a fresh client (its first request is challenged: one more answer). */
async function count(unit: RunningEmulator): Promise<Count> {
  const client = new DliClient({
    url: unit.url,
    credentials: { kind: 'digest', user: USER, password: PASSWORD },
    fingerprint: unit.device.certificate!.fingerprint256,
    timeoutMs: 60_000,
  });
  try {
    for (let i = 0; i < REQUESTS; i++) await client.outlets.list();
  } finally {
    await client.close();
  }
  return { full: unit.device.tlsHandshakes().full, requests: unit.device.stats.requests };
}

export async function measureTlsHandshakes(): Promise<Row[]> {
  const profile = { realUnit: true, tls: true, slowOutletListMs: 0 };
  const resuming = await startLocal(1, profile);
  const refusing = await startLocal(1, { ...profile, tlsResumption: false });
  try {
    const plugboard = await count(resuming.emulators[0]!);
    const baseline = await count(refusing.emulators[0]!);
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
        note: `${plugboard.requests} requests to the emulator's real-unit profile over HTTPS, each on a new connection (Connection: close); counted server-side; against a unit that never resumes Plugboard paid ${baseline.full} full handshakes for ${baseline.requests} requests.`,
      }),
    ];
  } finally {
    await Promise.allSettled([resuming.close(), refusing.close()]);
  }
}
