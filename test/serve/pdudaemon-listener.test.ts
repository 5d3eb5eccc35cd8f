/**
 * The pdudaemon listener against a real Core driving emulators on 127.0.0.1 (any free port): the URLs
 * labgrid's PDUDaemonDriver builds, get-status and wait=1, every refusal's status and sentence, and the
 * TCP line protocol's answers. pduclient itself runs in pdudaemon-pduclient.system.test.ts (port 16421, in a
 * private network namespace).
 *
 * @real-unit: rerun against the emulator's real-unit profile for on, off and reboot carried out and confirmed
 * by the unit.
 */
import { request } from 'node:http';
import { connect } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ControllerSummary } from '../../src-preload/contract';
import { listenPdudaemon, type RunningPdudaemon } from '../../src-main/serve/pdudaemon-server';
import { FakeClock } from '../core/fake-clock';
import { addController, cleanUp, emulator, newCore, until, type CoreHarness } from '../core/harness';
import { pduGet, pduTcp } from './pdudaemon-client';

const listeners: RunningPdudaemon[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
  await cleanUp();
});

const LOADED = { timeout: 15_000, interval: 10 };
const ALL_ON = [true, true, true, true, true, true, true, true];

async function bench(options: { clock?: FakeClock; emu?: Parameters<typeof emulator>[0] } = {}) {
  const emu = await emulator({ initialStates: ALL_ON, ...options.emu });
  const h: CoreHarness = newCore(options.clock ? { clock: options.clock } : {});
  const summary = await addController(h, emu, { name: 'Bench A' });
  await h.ok<ControllerSummary>('controllers/update', { id: summary.id, alias: 'bench-a' });
  const pdu = await listenPdudaemon(h.core, {
    port: 0,
    log: () => undefined,
    confirmTimeoutMs: 20_000,
    ...(options.clock ? { clock: options.clock } : {}),
  });
  listeners.push(pdu);
  return { emu, h, id: summary.id, port: pdu.port };
}

describe('pdudaemon over HTTP', () => {
  it("answers labgrid's PDUDaemonDriver URLs: on, off, and reboot with its delay (off, wait, on)", async () => {
    const clock = new FakeClock();
    const { emu, h, port } = await bench({ clock });
    const url = (cmd: string) => `/power/control/${cmd}?hostname=bench-a&port=3`;
    expect(await pduGet(port, url('off'))).toEqual({
      status: 200,
      body: 'OK - accepted request\n',
      type: 'text/plain; charset=utf-8',
    });
    expect(emu.device.outlet(2).state).toBe(false);
    expect(await pduGet(port, url('on'))).toMatchObject({ status: 200 });
    expect(emu.device.outlet(2).state).toBe(true);
    // labgrid: `&delay={math.ceil(self.delay)}` on reboot only (default delay 5.0).
    const reboot = pduGet(port, `${url('reboot')}&delay=5`);
    await vi.waitFor(() => expect(clock.timersOf(5000)).toBe(1), LOADED);
    expect(emu.device.outlet(2).state).toBe(false);
    await clock.advance(5000);
    expect(await reboot).toMatchObject({ status: 200, body: 'OK - accepted request\n' });
    expect(emu.device.outlet(2).state).toBe(true);
    const entries = h.activity().filter((e) => e.outlet === 3);
    expect(entries.map((e) => [e.action, e.source, e.who, e.result])).toEqual(
      ['off', 'on', 'cycle: off for 5 s', 'cycle: on after 5 s'].map((a) => [
        a,
        'pdudaemon-http',
        'pdudaemon client 127.0.0.1',
        'ok',
      ]),
    );
  });

  it('refuses requests a web page makes (a browser marks them Sec-Fetch-Site or Origin), switching nothing', async () => {
    const { emu, port } = await bench();
    const browserGet = (headers: Record<string, string>) =>
      new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(
          { host: '127.0.0.1', port, path: '/power/control/off?hostname=bench-a&port=3', headers },
          (res) => {
            let body = '';
            res.setEncoding('utf8');
            res.on('data', (chunk: string) => (body += chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
          },
        );
        req.on('error', reject);
        req.end();
      });
    const fromBrowsers: Record<string, string>[] = [
      { 'Sec-Fetch-Site': 'cross-site', 'Sec-Fetch-Mode': 'no-cors' },
      { Origin: 'https://example.org' },
    ];
    for (const headers of fromBrowsers) {
      const answer = await browserGet(headers);
      expect(answer.status).toBe(403);
      expect(answer.body).toMatch(/not from a web page/);
    }
    expect(emu.device.outlet(2).state).toBe(true);
    // The same request from a tool is carried out.
    expect((await browserGet({})).status).toBe(200);
    expect(emu.device.outlet(2).state).toBe(false);
  });

  it('get-status answers the physical state; wait=1 answers only once the controller confirms it', async () => {
    // A 1 s on-sequence delay: the relay closes a while after the controller accepted "on".
    const { emu, h, id, port } = await bench({
      emu: { sequenceDelay: 1, initialStates: [true, true, false], outlets: 3 },
    });
    const status = (extra = '') =>
      pduGet(port, `/power/control/get-status?hostname=Bench%20A&port=3${extra}`);
    expect(await status()).toEqual({ status: 200, body: '{"state": "off"}\n', type: 'application/json' });
    expect(await pduGet(port, '/power/control/get-port-state?hostname=bench-a&port=1')).toMatchObject({
      body: '{"state": "on"}\n',
    });
    const on = await pduGet(port, '/power/control/on?hostname=bench-a&port=3&wait=1');
    expect(on).toMatchObject({ status: 200, body: 'OK - accepted request\n' });
    // Answered only after the Core saw the relay closed and settled the change.
    expect(emu.device.outlet(2).physicalState).toBe(true);
    const outlet = h.state(id)!.outlets[2]!;
    expect([outlet.physicalState, outlet.pending]).toEqual([true, null]);
    expect(await status('&wait=1')).toMatchObject({ body: '{"state": "on"}\n' });
  });

  it('refuses with a status and one sentence: unknown PDU or port, bad delay, locked, critical, unreachable', async () => {
    const { emu, h, id, port } = await bench();
    const get = (path: string) => pduGet(port, `/power/control/${path}`);
    expect(await get('on?hostname=rack-9&port=1')).toEqual({
      status: 404,
      body: 'Unknown PDU "rack-9": no saved controller has that name or alias.\n',
      type: 'text/plain; charset=utf-8',
    });
    // The sentence is the status line's reason too: python-requests' raise_for_status() (labgrid) shows it.
    expect((await fetch(`http://127.0.0.1:${port}/power/control/on?hostname=rack-9&port=1`)).statusText).toBe(
      'Unknown PDU "rack-9": no saved controller has that name or alias.',
    );
    expect(await get('on?hostname=bench-a&port=0')).toMatchObject({
      status: 404,
      body: 'Unknown port "0" on Bench A: outlets are numbered 1 to 8, as on its label (not from 0).\n',
    });
    expect(await get('on?hostname=bench-a&port=Printer')).toMatchObject({
      status: 404,
      body: expect.stringMatching(/^Unknown port "Printer" on Bench A: no outlet has that name/),
    });
    expect(await get('reboot?hostname=bench-a&port=3&delay=301')).toMatchObject({
      status: 400,
      body: 'The delay "301" must be whole seconds from 0 to 300.\n',
    });
    expect(await get('toggle?hostname=bench-a&port=3')).toMatchObject({
      status: 404,
      body: expect.stringMatching(/^Unknown command "toggle"/),
    });
    expect(await get('on?port=3')).toMatchObject({ status: 400, body: expect.stringMatching(/no hostname/) });
    for (const method of ['HEAD', 'POST']) {
      const response = await fetch(`http://127.0.0.1:${port}/power/control/off?hostname=bench-a&port=1`, {
        method,
      });
      expect([response.status, response.headers.get('allow')]).toEqual([405, 'GET']);
    }
    expect(emu.device.outlet(0).state).toBe(true);

    emu.device.lock(3);
    await h.ok('controllers/refresh', { id });
    const locked = await get('off?hostname=bench-a&port=4');
    expect(locked.status).toBe(423);
    expect(locked.body).toMatch(/locked/i);
    expect(emu.device.outlet(3).state).toBe(true);

    emu.device.setCritical(4, true);
    await h.ok('controllers/refresh', { id });
    await until(h, id, (s) => s.outlets[4]!.critical);
    expect(await get('reboot?hostname=bench-a&port=5')).toMatchObject({
      status: 409,
      body: 'Outlet 5 on Bench A is marked critical, so nothing was switched: confirm that it may lose power, then ask again. pdudaemon cannot confirm it: use the Plugboard window, or plugboard off/cycle with --yes.\n',
    });
    expect(emu.device.outlet(4).state).toBe(true);

    await emu.device.goOffline();
    const offline = await get('off?hostname=bench-a&port=3');
    expect(offline.status).toBe(502);
    expect(offline.body).toMatch(/\.\n$/);
    // A reading now (it fails) instead of at the next poll.
    await h.call('controllers/refresh', { id });
    await until(h, id, (s) => s.status === 'offline');
    expect(await get('get-status?hostname=bench-a&port=3')).toMatchObject({
      status: 502,
      body: expect.stringMatching(/^Bench A is not answering/),
    });
  });

  it('get-status right after a switch answers the state the controller confirmed, not the last reading', async () => {
    // Every answer takes 300 ms (once the controller is added): the read confirming "off" comes well
    // after "off" was accepted.
    const { emu, port } = await bench();
    emu.device.latency = 300;
    expect(await pduTcp(port, 'bench-a 3 off')).toBe('ack\n');
    expect(await pduTcp(port, 'bench-a 3 get-status')).toBe('off\n');
    expect(await pduGet(port, '/power/control/on?hostname=bench-a&port=3')).toMatchObject({ status: 200 });
    expect(await pduGet(port, '/power/control/get-status?hostname=bench-a&port=3')).toMatchObject({
      body: '{"state": "on"}\n',
    });
    expect(emu.device.outlet(2).physicalState).toBe(true);
  });

  it('finds outlets by name', async () => {
    const { emu, h, id, port } = await bench();
    emu.device.setOutlet(5, { name: 'Router' });
    // The Core learns the new name from its next reading of the outlets: asked for now.
    await h.ok('controllers/refresh', { id });
    expect((await pduGet(port, '/power/control/off?hostname=BENCH-A&port=router')).status).toBe(200);
    expect(emu.device.outlet(5).state).toBe(false);
  });
});

describe('idle connections', () => {
  it('closes a connection whose request never completes (HTTP headers cut short, or nothing sent)', async () => {
    const { h } = await bench();
    const pdu = await listenPdudaemon(h.core, {
      port: 0,
      limits: { requestDeadlineMs: 200 },
      log: () => undefined,
    });
    listeners.push(pdu);
    const replies = await Promise.all(
      ['GET /power/control/on?hostname=bench-a&port=3 HTTP/1.1\r\nHost: x\r\n', ''].map(
        (sent) =>
          new Promise<string>((resolve) => {
            const socket = connect(pdu.port, '127.0.0.1', () => socket.write(sent));
            let reply = '';
            socket.on('data', (chunk) => (reply += String(chunk)));
            socket.on('error', () => undefined);
            socket.on('close', () => resolve(reply));
          }),
      ),
    );
    expect(replies).toEqual(['', '']);
  });
});

describe('a delay on on and off', () => {
  it('waits before switching, as pdudaemon does; a listener closing meanwhile sends nothing', async () => {
    const clock = new FakeClock();
    const { emu, port } = await bench({ clock });
    const off = pduGet(port, '/power/control/off?hostname=bench-a&port=3&delay=7');
    await vi.waitFor(() => expect(clock.timersOf(7000)).toBe(1), LOADED);
    expect(emu.device.outlet(2).state).toBe(true);
    await clock.advance(7000);
    expect(await off).toMatchObject({ status: 200 });
    expect(emu.device.outlet(2).state).toBe(false);

    const on = pduGet(port, '/power/control/on?hostname=bench-a&port=3&delay=7');
    await vi.waitFor(() => expect(clock.timersOf(7000)).toBe(1), LOADED);
    await listeners.at(-1)!.listener.close();
    expect(await on).toMatchObject({
      status: 503,
      body: 'Plugboard is stopping: the delayed command was not sent.\n',
    });
    await clock.advance(7000);
    expect(emu.device.outlet(2).state).toBe(false);
  });
});

describe('closing the listener', () => {
  it('answers a reboot in its wait before it closes, and refuses what arrives after', async () => {
    const clock = new FakeClock();
    const { emu, port } = await bench({ clock });
    const pdu = listeners.at(-1)!;
    const reboot = pduGet(port, '/power/control/reboot?hostname=bench-a&port=3&delay=30');
    await vi.waitFor(() => expect(clock.timersOf(30_000)).toBe(1), LOADED);
    let closed = false;
    const closing = pdu.listener.close().then(() => (closed = true));
    expect(await pduTcp(port, 'bench-a 4 off')).toBe(
      'nack: Plugboard is stopping: send the request again once it runs.\n',
    );
    expect(emu.device.outlet(3).state).toBe(true);
    expect(closed).toBe(false);
    await clock.advance(30_000);
    expect(await reboot).toMatchObject({ status: 200, body: 'OK - accepted request\n' });
    await closing;
    expect(emu.device.outlet(2).state).toBe(true);
  });
});

describe('pdudaemon over TCP', () => {
  it('answers ack, nack, and on/off for get-status, recording the TCP door', async () => {
    const { emu, h, port } = await bench();
    expect(await pduTcp(port, 'bench-a 3 off')).toBe('ack\n');
    expect(emu.device.outlet(2).state).toBe(false);
    expect(await pduTcp(port, 'bench-a 3 get-status')).toBe('off\n');
    expect(await pduTcp(port, 'bench-a 2 get-port-state')).toBe('on\n');
    expect(await pduTcp(port, 'rack-9 3 off')).toBe(
      'nack: Unknown PDU "rack-9": no saved controller has that name or alias.\n',
    );
    expect(await pduTcp(port, 'bench-a 3')).toBe(
      'nack: Expected "<pdu> <port> <command> [delay]" (3 or 4 words), got 2 words.\n',
    );
    expect(await pduTcp(port, 'bench-a 3 reboot soon')).toBe(
      'nack: The delay "soon" must be whole seconds from 0 to 300.\n',
    );
    expect(await pduTcp(port, 'bench-a 9 on')).toBe(
      'nack: Unknown port "9" on Bench A: outlets are numbered 1 to 8, as on its label (not from 0).\n',
    );
    expect(await pduTcp(port, 'bench-a 3 reboot 0')).toBe('ack\n');
    expect(emu.device.outlet(2).state).toBe(true);
    const entries = h.activity().filter((e) => e.outlet === 3);
    expect(entries.map((e) => [e.action, e.source, e.who])).toEqual(
      ['off', 'cycle: off for 0 s', 'cycle: on after 0 s'].map((a) => [
        a,
        'pdudaemon-tcp',
        'pdudaemon client 127.0.0.1',
      ]),
    );
  });
});

describe('who asked', () => {
  it('names an IPv4 client of an IPv6 listener (::ffff:127.0.0.1) by its IPv4 address', async () => {
    const { h } = await bench();
    // Bound to the IPv4-mapped loopback address: its clients show as ::ffff:127.0.0.1, as on a dual-stack '::'.
    const pdu = await listenPdudaemon(h.core, { host: '::ffff:127.0.0.1', port: 0, log: () => undefined });
    listeners.push(pdu);
    expect(await pduTcp(pdu.port, 'bench-a 2 off')).toBe('ack\n');
    expect(h.activity().find((e) => e.outlet === 2)).toMatchObject({
      source: 'pdudaemon-tcp',
      who: 'pdudaemon client 127.0.0.1',
    });
  });
});
