/**
 * A cycle on a unit whose transient state follows the relay (reference §13: sources differ on which way
 * it moves). A proxy in front of the emulator reports `transient_state` equal to the relay while the
 * emulator's outlet is in its off-time. The cycle must show its countdown, be recorded once as done, and
 * the relay coming back must not count as a change made outside Plugboard.
 *
 * @real-unit: rerun against the emulator's real-unit profile for a cycle judged on what the unit reports.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { OutletActionResult } from '../../../src-preload/contract';
import type { RunningEmulator } from '../../../src-main/emulator';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, newCore } from '../harness';
import { nextPoll, planned } from '../poll-steps';

afterEach(cleanUp);

const proxies: { close(): void }[] = [];
afterEach(() => proxies.splice(0).forEach((p) => p.close()));

/** Forwards to `emu`; in `relay/outlets/` answers, a cycling outlet's transient state follows its relay. */
async function followingProxy(emu: RunningEmulator): Promise<string> {
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const upstream = new URL(req.url ?? '/', emu.url);
    const outgoing = request(
      upstream,
      { method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        const chunks: Buffer[] = [];
        answer.on('data', (chunk: Buffer) => chunks.push(chunk));
        answer.on('end', () => {
          let body = Buffer.concat(chunks);
          if (
            req.method === 'GET' &&
            /\/restapi\/relay\/outlets\/$/.test(upstream.pathname) &&
            answer.statusCode === 200
          ) {
            const outlets = JSON.parse(body.toString()) as {
              transient_state: boolean;
              physical_state: boolean;
            }[];
            outlets.forEach((outlet, i) => {
              if (emu.device.outlet(i).cycling) outlet.transient_state = outlet.physical_state;
            });
            body = Buffer.from(JSON.stringify(outlets));
          }
          const headers = { ...answer.headers, 'content-length': String(body.length) };
          delete headers['transfer-encoding'];
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(body);
        });
      },
    );
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  proxies.push({ close: () => server.close() });
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe('a cycle whose transient state follows the relay', () => {
  it('shows the countdown, is recorded once as done, and the re-on is not an outside change', async () => {
    // Polls on the Core's fake clock, each run when the test says; an off-time long enough that the poll
    // the answer asks for finds the relay off, however busy the machine.
    const clock = new FakeClock();
    const emu = await emulator({ cycleDelay: 1.5 });
    const url = await followingProxy(emu);
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 1000 });
    const { id } = await addController(h, { ...emu, url }, { name: 'Follower' });
    await planned(clock);
    const result = await h.ok<OutletActionResult>('outlets/cycle', { controllerId: id, outlet: 1 });
    expect(result).toEqual({ requested: [1], failed: [] });
    // A poll during the off-time reads the outlet wholly off, and it stays a cycle with its countdown.
    await nextPoll(clock);
    const off = h.state(id)!;
    expect(off.outlets[0]).toMatchObject({ transientState: false, physicalState: false });
    expect(off.outlets[0]!.pending).toMatchObject({ kind: 'cycle', target: true });
    expect(off.outlets[0]!.cycleEndsAt).not.toBeNull();
    await emu.device.whenSettled(10_000);
    await nextPoll(clock);
    const back = h.state(id)!;
    expect(back.outlets[0]).toMatchObject({ physicalState: true, transientState: true, pending: null });
    // One more poll after the cycle settled, so a late outside-change entry would have shown up.
    await nextPoll(clock);
    const entries = h.activity().filter((e) => e.outlet === 1);
    expect(entries.map((e) => `${e.action} ${e.result} ${e.source}`)).toEqual([
      expect.stringMatching(/^cycle ok /),
    ]);
  });
});
