/**
 * The listeners of the built `plugboard serve` (out/main/plugboard.js) under hostile clients: oversized
 * pdudaemon TCP lines, slow clients trickling header lines, a flood of idle connections, forged log
 * lines. Every client is on 127.0.0.0/8; the floods come from 127.0.0.2 where a legitimate client on
 * 127.0.0.1 must still be served. Waits on the child's lines, exit, descriptors and socket events.
 */
import { connect } from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WEB_LIMITS } from '../../src-main/web/server';
import { CONNECTION_LIMITS } from '../../src-main/serve/network';
import { cleanUpServe, flood, savedBench, scratchDir, serveBuilt as serve } from './built-serve';
import { pduGet, pduTcp } from './pdudaemon-client';

afterEach(cleanUpServe);

/** Send `data` on its own connection and read until the service closes it (the client never ends first). */
function sendAndRead(port: number, data: string | Buffer): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(data));
    let reply = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (reply += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => resolve(reply));
  });
}

const OVER_CAP = 'nack: The request is over 16 KiB: send one line "<pdu> <port> <command> [delay]".\n';

describe('plugboard serve under hostile clients (a real process)', () => {
  it(
    'leaks no file descriptor for 200 oversized pdudaemon TCP lines, and ends by itself after SIGTERM whatever clients do',
    { timeout: 120_000 },
    async () => {
      const configDir = path.join(scratchDir(), 'config');
      const service = serve([
        '--listen',
        'pdudaemon=127.0.0.1:0',
        '--shutdown-grace',
        '2',
        '--config-dir',
        configDir,
      ]);
      const port = Number((await service.line(/^pdudaemon: 127\.0\.0\.1:(\d+) /))[1]);
      await service.line(/^Ready\.$/);
      const before = service.fdCount();

      // Each client reads its answer and closes when the service does (it never ends first).
      const line = Buffer.alloc(70_000, 'a');
      const replies: string[] = [];
      for (let batch = 0; batch < 4; batch++)
        replies.push(...(await Promise.all(Array.from({ length: 50 }, () => sendAndRead(port, line)))));
      expect(new Set(replies)).toEqual(new Set([OVER_CAP]));
      await vi.waitFor(() => expect(service.fdCount()).toBeLessThanOrEqual(before + 5), {
        timeout: 30_000,
        interval: 50,
      });

      // At SIGTERM: idle clients, slow clients trickling an HTTP request, and lines still being sent.
      await flood(port, 50, { localAddress: '127.0.0.2' });
      await flood(port, 50, {
        localAddress: '127.0.0.3',
        first: 'GET /power/control/on?hostname=bench-a&port=1 HTTP/1.1\r\n',
        trickle: 'X-Slow: 1\r\n',
      });
      await flood(port, 20, { localAddress: '127.0.0.4', first: 'bench-a', trickle: ' a' });
      service.child.kill('SIGTERM');
      const stopped = await service.exit;
      expect(stopped.code).toBe(0);
      expect(stopped.stdout).toContain('Stopped.');
    },
  );

  it(
    'answers a legitimate get-status on pdudaemon and a GET on the API while 300 slow clients hold each',
    { timeout: 120_000 },
    async () => {
      const { configDir, credentials, emu } = await savedBench();
      const service = serve(
        [
          '--listen',
          'pdudaemon=127.0.0.1:0',
          '--listen',
          'api=127.0.0.1:0',
          '--shutdown-grace',
          '2',
          '--config-dir',
          configDir,
        ],
        { CREDENTIALS_DIRECTORY: credentials },
      );
      const api = (await service.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
      const pduPort = Number((await service.line(/^pdudaemon: 127\.0\.0\.1:(\d+) /))[1]);
      await service.line(/^Ready\.$/);
      await expect
        .poll(
          async () =>
            ((await (await fetch(`${api}/api/v1/controllers/bench-a`)).json()) as { status: string }).status,
          { timeout: 30_000 },
        )
        .toBe('online');

      // 300 connections to each listener from 127.0.0.2, each sending a header line every second.
      const slowPdu = await flood(pduPort, 300, {
        localAddress: '127.0.0.2',
        first: 'GET /power/control/get-status?hostname=bench-a&port=1 HTTP/1.1\r\n',
        trickle: 'X-Slow: 1\r\n',
      });
      const slowApi = await flood(Number(new URL(api).port), 300, {
        localAddress: '127.0.0.2',
        first: 'GET /api/v1/controllers HTTP/1.1\r\n',
        trickle: 'X-Slow: 1\r\n',
      });

      expect(await pduTcp(pduPort, 'bench-a 1 get-status')).toMatch(/^(on|off)\n$/);
      expect(await pduGet(pduPort, '/power/control/get-status?hostname=bench-a&port=1')).toMatchObject({
        status: 200,
        body: expect.stringMatching(/^\{"state": "(on|off)"\}\n$/) as unknown,
      });
      const response = await fetch(`${api}/api/v1/controllers/bench-a`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ name: 'bench-a', status: 'online' });

      // One address holds no more than its share; the rest of each flood was closed.
      await slowPdu.closedAtLeast(300 - CONNECTION_LIMITS.pdudaemon.maxPerAddress);
      await slowApi.closedAtLeast(300 - CONNECTION_LIMITS.api.maxPerAddress);

      // SIGTERM with the slow clients still there and a reboot under way whose off-time (300 s, the most
      // pdudaemon allows) far outlasts the grace period: its connection is closed when the grace ends,
      // the Core then switches the outlet back on at once instead of after the rest of the delay
      // (operations.ts, hurry), and the process ends by itself.
      const reboot = pduGet(pduPort, '/power/control/reboot?hostname=bench-a&port=2&delay=300').catch(
        (error: unknown) => error,
      );
      await vi.waitFor(() => expect(emu.device.outlet(1).state).toBe(false), { timeout: 30_000 });
      service.child.kill('SIGTERM');
      expect((await service.exit).code).toBe(0);
      expect(emu.device.outlet(1).state).toBe(true);
      await reboot;
    },
  );

  it(
    'holds a flood of idle connections to the web window under its cap, and still serves the page',
    { timeout: 120_000 },
    async () => {
      const configDir = path.join(scratchDir(), 'config');
      const service = serve(['--listen', 'web', '--config-dir', configDir]);
      const origin = new URL((await service.line(/^web: (http:\S+)$/))[1]!).origin;
      await service.line(/^Ready\.$/);
      const before = service.fdCount();

      const idle = await flood(Number(new URL(origin).port), 2000);
      // Accepted after every connection of the flood: by its answer, each of those was taken or closed.
      const page = await fetch(`${origin}/`);
      expect(page.status).toBe(200);
      expect(service.fdCount()).toBeLessThanOrEqual(before + WEB_LIMITS.maxConnections + 8);
      await idle.closedAtLeast(2000 - WEB_LIMITS.maxConnections);
    },
  );

  it(
    'keeps forged lines and terminal escapes out of its log, and logs a flood of refusals in a few lines',
    { timeout: 120_000 },
    async () => {
      const configDir = path.join(scratchDir(), 'config');
      const service = serve(['--listen', 'pdudaemon=127.0.0.1:0', '--config-dir', configDir]);
      const port = Number((await service.line(/^pdudaemon: 127\.0\.0\.1:(\d+) /))[1]);
      await service.line(/^Ready\.$/);

      const forged = (i: number) =>
        i % 2 === 0
          ? `\x1b[2J\x1b]0;owned\x07\r[plugboard serve] Stopped. ${i} \u202eflow`
          : `x ${i}\n[plugboard serve] forged ${i}\x1b[31m`;
      for (let start = 0; start < 400; start += 100) {
        const replies = await Promise.all(
          Array.from({ length: 100 }, (_, i) => pduTcp(port, forged(start + i))),
        );
        for (const reply of replies) expect(reply).toMatch(/^nack: /);
      }
      service.child.kill('SIGTERM');
      const stopped = await service.exit;
      expect(stopped.code).toBe(0);
      // No control character but the newlines between lines, no bidi override.
      const controls = [...stopped.stderr].filter((c) => {
        const code = c.codePointAt(0)!;
        return (code < 0x20 && code !== 0x0a) || code === 0x7f || code === 0x202e;
      });
      expect(controls).toEqual([]);
      const lines = stopped.stderr.split('\n');
      expect(lines.filter((l) => /^\[plugboard serve\] (Stopped|forged)/.test(l))).toEqual([]);
      // A few lines per minute, and a count of the rest: every refusal is accounted for.
      const logged = lines.filter((l) => l.includes('pdudaemon TCP')).length;
      const summed = lines
        .map((l) => /… and ([\d,]+) more .* not logged one by one\./.exec(l))
        .filter((m) => m !== null);
      expect(summed.length).toBeGreaterThan(0);
      expect(logged).toBeLessThanOrEqual(20 * summed.length);
      expect(logged + summed.reduce((sum, m) => sum + Number(m[1]!.replace(/,/g, '')), 0)).toBe(400);
    },
  );
});
