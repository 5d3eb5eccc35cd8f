import { Agent, request } from 'node:https';
import { describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';

// TLS on a unit that closes every connection: the emulator counts full and resumed handshakes, and can
// refuse resumption (whether real units resume is unknown; issue 14 item 3).

/** Sequential GETs through one agent (it caches TLS sessions); each answer closes its connection. */
async function getMany(emu: RunningEmulator, count: number): Promise<number[]> {
  const agent = new Agent({ ca: emu.device.certificate?.pem, keepAlive: false });
  const statuses: number[] = [];
  try {
    for (let i = 0; i < count; i++) {
      statuses.push(
        await new Promise<number>((resolve, reject) => {
          const req = request(`${emu.url}/restapi/`, { agent }, (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode ?? 0));
          });
          req.on('error', reject);
          req.end();
        }),
      );
    }
  } finally {
    agent.destroy();
  }
  return statuses;
}

describe('TLS handshakes on a real-unit emulator', () => {
  it('resumes sessions by default: one full handshake, the rest resumed', async () => {
    const emu = await startEmulator({ realUnit: true, tls: true });
    try {
      expect(await getMany(emu, 5)).toEqual(Array(5).fill(401));
      expect(emu.device.tlsHandshakes()).toEqual({ full: 1, resumed: 4 });
    } finally {
      await emu.close();
    }
  });

  it('tlsResumption: false makes every connection a full handshake', async () => {
    const emu = await startEmulator({ realUnit: true, tls: true, tlsResumption: false });
    try {
      expect(await getMany(emu, 5)).toEqual(Array(5).fill(401));
      expect(emu.device.tlsHandshakes()).toEqual({ full: 5, resumed: 0 });
    } finally {
      await emu.close();
    }
  });
});
