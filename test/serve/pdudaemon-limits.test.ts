/**
 * The pdudaemon listener's limits against a real Core and an emulated controller on 127.0.0.1: the
 * deadline from connect to a complete request (the fake clock), the size of a TCP request, the caps per
 * address, and what HTTP requests it refuses (Host, malformed targets). Hostile clients are bound to
 * 127.0.0.2; the legitimate one is on 127.0.0.1.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ControllerSummary } from '../../src-preload/contract';
import type { ConnectionLimits } from '../../src-main/web/connection-guard';
import { listenPdudaemon, type RunningPdudaemon } from '../../src-main/serve/pdudaemon-server';
import { FakeClock } from '../core/fake-clock';
import { addController, cleanUp, emulator, newCore } from '../core/harness';
import { endFloods, flood } from './built-serve';
import { pduTcp } from './pdudaemon-client';

const listeners: RunningPdudaemon[] = [];
afterEach(async () => {
  endFloods();
  await Promise.all(listeners.splice(0).map((l) => l.close()));
  await cleanUp();
});

async function bench(options: { clock?: FakeClock; limits?: Partial<ConnectionLimits> } = {}) {
  const emu = await emulator();
  const h = newCore(options.clock ? { clock: options.clock } : {});
  const summary = await addController(h, emu, { name: 'Bench A' });
  await h.ok<ControllerSummary>('controllers/update', { id: summary.id, alias: 'bench-a' });
  const logged: string[] = [];
  const pdu = await listenPdudaemon(h.core, {
    port: 0,
    log: (line) => logged.push(line),
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.limits ? { limits: options.limits } : {}),
  });
  listeners.push(pdu);
  return { emu, port: pdu.port, logged };
}

function get(
  port: number,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode!, body, connection: res.headers.connection }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the deadline to a complete request', () => {
  it('closes an HTTP client at its deadline from connect, however often it sends a header line', async () => {
    const clock = new FakeClock();
    const { port } = await bench({ clock });
    const socket = connect({ port, host: '127.0.0.1', localAddress: '127.0.0.2' });
    socket.on('error', () => undefined);
    const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
    socket.write('GET /power/control/on?hostname=bench-a&port=3 HTTP/1.1\r\n');
    // A slow client is never quiet for long: an inactivity timer would never fire.
    const trickle = setInterval(() => socket.write('X-Slow: 1\r\n'), 200);
    try {
      await vi.waitFor(() => expect(clock.timersOf(10_000)).toBe(1), { timeout: 15_000, interval: 5 });
      await clock.advance(10_000);
      await closed;
    } finally {
      clearInterval(trickle);
    }
  });
});

describe('a TCP request', () => {
  it('is read up to its newline: what follows is not part of it', async () => {
    const { emu, port } = await bench();
    expect(await pduTcp(port, `bench-a 3 off\n${'x'.repeat(1000)}`)).toBe('ack\n');
    expect(emu.device.outlet(2).state).toBe(false);
  });

  it('over 16 KiB is refused with a sentence, and its socket closed', async () => {
    const { port, logged } = await bench();
    expect(await pduTcp(port, 'a'.repeat(70_000))).toBe(
      'nack: The request is over 16 KiB: send one line "<pdu> <port> <command> [delay]".\n',
    );
    expect(logged.join('\n')).toMatch(
      /pdudaemon TCP "a{80}…" \(\d+ characters\) from 127\.0\.0\.1: The request is over/,
    );
  });
});

describe('the connection caps', () => {
  it('hold one address to its share while another is served', async () => {
    const { port } = await bench({ limits: { maxPerAddress: 4 } });
    const slow = await flood(port, 10, {
      localAddress: '127.0.0.2',
      first: 'GET /power/control/get-status?hostname=bench-a&port=3 HTTP/1.1\r\n',
      trickle: 'X-Slow: 1\r\n',
    });
    await slow.closedAtLeast(6);
    expect(await pduTcp(port, 'bench-a 3 get-status')).toBe('on\n');
  });
});

describe('HTTP requests it refuses', () => {
  it('refuses a Host that is not this machine (DNS rebinding), switching nothing', async () => {
    const { emu, port } = await bench();
    const refused = await get(port, '/power/control/off?hostname=bench-a&port=3', { Host: 'evil.example' });
    expect(refused).toMatchObject({
      status: 403,
      body: 'Refused: the Host "evil.example" is not this machine\'s address or a name given with --host-name.\n',
    });
    expect(emu.device.outlet(2).state).toBe(true);
    expect(
      await get(port, '/power/control/off?hostname=bench-a&port=3', { Host: `localhost:${port}` }),
    ).toMatchObject({
      status: 200,
    });
  });

  it('answers a malformed percent-encoding with 400 and a sentence, and closes every connection after its answer', async () => {
    const { port, logged } = await bench();
    const answer = await get(port, '/power/control/%zz?hostname=bench-a&port=3');
    expect(answer).toMatchObject({ status: 400, connection: 'close' });
    expect(answer.body).toMatch(/^The path has a malformed percent-encoding in "%zz": write a "%" as %25/);
    expect(logged.join('\n')).not.toMatch(/URIError|\n\s+at /);
  });
});
