import { afterEach, describe, expect, it } from 'vitest';
import { discover } from '../../src-main/discovery/discovery-service';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';

/** The range probe against real emulated controllers (real digest challenge), on 127.0.0.x only. */

const running: RunningEmulator[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
});

/** Emulators on several loopback addresses sharing one port, like units on a subnet. */
async function emulatorsOn(hosts: { host: string; serial: string; restApi?: boolean }[]): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    let port = 0;
    try {
      for (const { host, serial, restApi } of hosts) {
        const emulator = await startEmulator({ host, port, serial });
        running.push(emulator);
        if (restApi === false) emulator.device.setConfig({ restApiEnabled: false });
        port = Number(new URL(emulator.url).port);
      }
      return port;
    } catch (error) {
      await Promise.all(running.splice(0).map((e) => e.close()));
      if (!/EADDRINUSE/.test(String(error)) || attempt > 20) throw error;
    }
  }
}

describe('probing emulated controllers', () => {
  it('finds each controller by its DIGEST realm "DLI <serial>" and skips one with the REST API off', async () => {
    const port = await emulatorsOn([
      { host: '127.0.0.21', serial: 'LPC92712030336' },
      { host: '127.0.0.23', serial: 'EPCR5100045' },
      { host: '127.0.0.24', serial: 'LPC761333', restApi: false },
    ]);
    const results = await discover(
      { mdns: false, ssdp: false, range: `127.0.0.20-127.0.0.25:${port}` },
      { timeoutMs: 1000 },
    );
    expect(results.map((r) => [r.url, r.serial, r.sources])).toEqual([
      [`http://127.0.0.21:${port}`, 'LPC92712030336', ['probe']],
      [`http://127.0.0.23:${port}`, 'EPCR5100045', ['probe']],
    ]);
    // One unauthenticated GET per controller: the probe never tries to log in.
    for (const emulator of running) expect(emulator.device.stats.requests).toBe(1);
  });
});
