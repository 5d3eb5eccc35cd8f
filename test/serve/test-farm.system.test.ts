/**
 * Issue 15's "done when", end to end: the BUILT `plugboard serve` (npm test builds out/ first) with a
 * saved controller `bench-a`, Debian's `pduclient` in both modes power-cycling outlet 3, get-status,
 * a reservation held at the window refusing the same command and naming its holder, and the activity
 * log saying who did each. pduclient always uses port 16421, so all of it runs in a private network
 * namespace (`unshare -n`, as root: CI runs as root). Waits on the processes, never on time.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runInNamespace } from './namespace-run';

const root = path.resolve(import.meta.dirname, '../..');
const fixture = path.join(import.meta.dirname, 'fixtures', 'test-farm-run.ts');

interface Outcome {
  rebootTcp: { code: number; out: string };
  rebootHttp: { code: number; out: string };
  states: boolean[];
  status: { status: number; body: string };
  refusedTcp: { code: number; out: string };
  refusedHttp: { status: number; body: string };
  physicalAfterRefusal: boolean;
  activity: { outlet: number | null; action: string; source: string; who: string | null; result: string }[];
  exit: number | null;
  stopped: boolean;
}

function inNamespace(): Promise<Outcome> {
  return runInNamespace<Outcome>(fixture, [], 140_000);
}

it(
  'pduclient reboots outlet 3 of bench-a through plugboard serve; a reservation at the window refuses it, naming the holder; the log says who did each',
  { timeout: 150_000 },
  async () => {
    expect(existsSync(path.join(root, 'out/main/plugboard.js')), 'build first: npx electron-vite build').toBe(
      true,
    );
    const run = await inNamespace();

    expect(run.rebootTcp).toEqual({ code: 0, out: 'Command sent successfully.' });
    expect(run.rebootHttp).toEqual({ code: 0, out: 'Command sent successfully.' });
    // Two power cycles of the relay: off, on, off, on.
    expect(run.states).toEqual([true, false, true, false, true]);
    expect(run.status).toEqual({ status: 200, body: '{"state": "on"}' });

    const refusal = /reserved by alice until .*: flashing firmware/;
    expect(run.refusedTcp.code).not.toBe(0);
    expect(run.refusedTcp.out).toMatch(refusal);
    expect(run.refusedHttp.status).toBe(409);
    expect(run.refusedHttp.body).toMatch(refusal);
    expect(run.physicalAfterRefusal).toBe(true);

    // Who did each, oldest first: the two reboots by the pdudaemon clients, the reservation by alice.
    const outlet3 = run.activity.filter((e) => e.outlet === 3).reverse();
    expect(outlet3.map((e) => [e.source, e.who, e.result])).toEqual([
      ['pdudaemon-tcp', 'pdudaemon client 127.0.0.1', 'ok'],
      ['pdudaemon-tcp', 'pdudaemon client 127.0.0.1', 'ok'],
      ['pdudaemon-http', 'pdudaemon client 127.0.0.1', 'ok'],
      ['pdudaemon-http', 'pdudaemon client 127.0.0.1', 'ok'],
      ...outlet3.slice(4).map((e) => [e.source, e.who, e.result]),
    ]);
    // Then alice's reservation, and the two refused attempts, each by its door.
    expect(
      outlet3.slice(4).map((e) => [e.action.replace(/ until .*/, ''), e.source, e.who, e.result]),
    ).toEqual([
      ['reserved', 'window', 'alice', 'ok'],
      ['refused', 'pdudaemon-tcp', 'pdudaemon client 127.0.0.1', 'error'],
      ['refused', 'pdudaemon-http', 'pdudaemon client 127.0.0.1', 'error'],
    ]);
    expect(run.exit).toBe(0);
    expect(run.stopped).toBe(true);
  },
);
