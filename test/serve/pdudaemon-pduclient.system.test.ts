/**
 * Debian's own pdudaemon client, `pduclient`, in both its modes against Plugboard's listener. pduclient
 * always uses port 16421, so each run has a private network namespace (`unshare -n`, root: CI runs as
 * root) holding the emulator, the Core, the listener and pduclient: nothing can collide with the
 * machine's own port 16421 or leave the namespace.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runInNamespace } from './namespace-run';

const fixture = path.join(import.meta.dirname, 'fixtures', 'pduclient-run.ts');

interface Run {
  port: number;
  runs: { argv: string[]; code: number; out: string }[];
  states: boolean[];
  activity: { outlet: number | null; action: string; source: string; who: string; result: string }[];
}

function inNamespace(runs: string[][], allow?: string): Promise<Run> {
  return runInNamespace<Run>(fixture, [JSON.stringify({ runs, allow })], 90_000);
}

const reboot = ['--daemon', '127.0.0.1', '--hostname', 'bench-a', '--port', '3', '--command', 'reboot'];
const unknown = ['--daemon', '127.0.0.1', '--hostname', 'rack-9', '--port', '3', '--command', 'off'];

describe.concurrent('pduclient against Plugboard in a private network namespace', () => {
  for (const mode of ['TCP', 'HTTP'] as const) {
    const extra = mode === 'HTTP' ? ['--http'] : [];
    it(`${mode}: "pduclient … --hostname bench-a --port 3 --command reboot" power-cycles outlet 3`, async () => {
      const run = await inNamespace([
        [...reboot, ...extra],
        [...unknown, ...extra],
      ]);
      expect(run.port).toBe(16421);
      expect(run.runs.map((r) => [r.code, r.out])).toEqual([
        [0, 'Command sent successfully.'],
        [
          127,
          mode === 'TCP'
            ? 'Error sending command! 127.0.0.1 replied: nack: Unknown PDU "rack-9": no saved controller has that name or alias.'
            : 'Error sending command! 127.0.0.1 replied: <Response [404]>',
        ],
      ]);
      // The relay went off and came back on; nothing else of the unit changed.
      expect(run.states).toEqual([true, false, true]);
      const door = mode === 'HTTP' ? 'pdudaemon-http' : 'pdudaemon-tcp';
      expect(run.activity.filter((e) => e.outlet === 3)).toEqual([
        {
          outlet: 3,
          action: 'cycle: off for 5 s',
          source: door,
          who: 'pdudaemon client 127.0.0.1',
          result: 'ok',
        },
        {
          outlet: 3,
          action: 'cycle: on after 5 s',
          source: door,
          who: 'pdudaemon client 127.0.0.1',
          result: 'ok',
        },
      ]);
    });
  }

  it("a named --allow network: pduclient acts as that client, refused outside its scope in the Core's words", async () => {
    const outside = await inNamespace([reboot, [...reboot, '--http']], 'ci=127.0.0.0/8[operator tags=farm]');
    const sentence =
      'ci (operator of tag farm) may not cycle outlets: outlet 3 on bench-a is outside its scope.';
    expect(outside.runs.map((r) => [r.code, r.out])).toEqual([
      [
        127,
        `Error sending command! 127.0.0.1 replied: nack: ${sentence} Ask the service's administrator to widen its scope, or use a client whose scope reaches it.`,
      ],
      [127, 'Error sending command! 127.0.0.1 replied: <Response [403]>'],
    ]);
    expect(outside.states).toEqual([true]);
    const inside = await inNamespace([reboot], 'ci=127.0.0.0/8[operator controllers=bench-a]');
    expect(inside.runs.map((r) => [r.code, r.out])).toEqual([[0, 'Command sent successfully.']]);
    expect(inside.activity.filter((e) => e.outlet === 3).map((e) => [e.action, e.source, e.who])).toEqual([
      ['cycle: off for 5 s', 'pdudaemon-tcp', 'ci'],
      ['cycle: on after 5 s', 'pdudaemon-tcp', 'ci'],
    ]);
  });
});
