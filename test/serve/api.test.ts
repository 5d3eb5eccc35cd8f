/**
 * The JSON status API and /metrics of `plugboard serve`, over a real Core driving an emulated
 * controller on 127.0.0.1, through real HTTP.
 *
 * @real-unit: rerun against the emulator's real-unit profile for outlets, meters and switching as the unit
 * answers them.
 */
import { request } from 'node:http';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { startApiListener } from '../../src-main/serve/api';
import type { RunningListener } from '../../src-main/serve/listener';
import { ServiceMetrics } from '../../src-main/serve/metrics';
import { parseTokens, type Token } from '../../src-main/serve/tokens';
import { addController, cleanUp, emulator, newCore, type CoreHarness } from '../core/harness';

const listeners: RunningListener[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close(1_000)));
  await cleanUp();
});

const SECRET = 'ci-secret-0123456789abcdef';

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => unknown;
}

function send(
  origin: string,
  path: string,
  options: { method?: string; token?: string; host?: string; body?: string } = {},
): Promise<Answer> {
  const url = new URL(path, origin);
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: options.method ?? 'GET',
        headers: {
          ...(options.token ? { Authorization: `Bearer ${options.token}` } : {}),
          ...(options.host ? { Host: options.host } : {}),
          ...(options.body ? { 'Content-Type': 'application/json' } : {}),
        },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (text += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode!, headers: res.headers, text, json: () => JSON.parse(text) }),
        );
      },
    );
    req.on('error', reject);
    req.end(options.body);
  });
}

async function started(
  h: CoreHarness,
  tokens: Token[] = [],
  log: (message: string) => void = () => undefined,
) {
  const listener = await startApiListener({
    core: h.core,
    spec: { name: 'api', host: '127.0.0.1', port: 0 },
    allow: null,
    tokens,
    hostNames: ['lab-pdu.example.org'],
    tls: null,
    metrics: new ServiceMetrics(),
    log,
  });
  listeners.push(listener);
  const origin = /api: (http:\/\/[^/]+)\//.exec(listener.lines[0]!)![1]!;
  return origin;
}

function tokens(): Token[] {
  const parsed = parseTokens(`# lab\nci-runner[operator]:${SECRET}\n`, 'tokens');
  if (typeof parsed === 'string') throw new Error(parsed);
  return parsed;
}

describe('the JSON status API', () => {
  it('lists the controllers with status, outlets (physical state, pending) and meters', async () => {
    const emu = await emulator();
    const h = newCore();
    await addController(h, emu, { name: 'Bench A' });
    emu.device.setOutlet(4, { state: false });
    const origin = await started(h);
    await vi.waitFor(
      async () => {
        const list = (await send(origin, '/api/v1/controllers')).json() as {
          outlets: { number: number; physicalState: boolean }[];
        }[];
        expect(list[0]!.outlets.find((o) => o.number === 5)?.physicalState).toBe(false);
      },
      { timeout: 15_000 },
    );
    const one = await send(origin, '/api/v1/controllers/bench%20a');
    expect(one.status).toBe(200);
    const body = one.json() as {
      name: string;
      status: string;
      outlets: unknown[];
      meters: { key: string }[];
    };
    expect(body).toMatchObject({ name: 'Bench A', status: 'online' });
    expect(body.outlets).toHaveLength(emu.device.outletCount);
    expect(body.outlets[0]).toMatchObject({ number: 1, pending: null });
    expect(body.meters.length).toBeGreaterThan(0);

    const missing = await send(origin, '/api/v1/controllers/Rack%207');
    expect(missing.status).toBe(404);
    expect((missing.json() as { error: { message: string } }).error.message).toContain('Rack 7');
  });

  it('answers a malformed percent-encoding with 400 and a sentence, not 500, and closes the connection', async () => {
    const h = newCore();
    const logged: string[] = [];
    const origin = await started(h, [], (line) => logged.push(line));
    const answer = await send(origin, '/api/v1/controllers/%zz');
    expect(answer.status).toBe(400);
    expect(answer.headers.connection).toBe('close');
    expect(answer.json()).toEqual({
      error: {
        code: 'BAD_INPUT',
        message:
          'The path "/api/v1/controllers/%zz" has a malformed percent-encoding: write a "%" as %25, and other characters as %XX with two hexadecimal digits.',
      },
    });
    expect(logged).toEqual([]);
  });

  it('refuses a Host that is not this machine (DNS rebinding), and accepts a name given with --host-name', async () => {
    const h = newCore();
    const origin = await started(h);
    const rebound = await send(origin, '/api/v1/controllers', { host: 'evil.example:16422' });
    expect(rebound.status).toBe(403);
    expect(rebound.text).toContain('Host');
    expect((await send(origin, '/api/v1/controllers', { host: 'lab-pdu.example.org:16422' })).status).toBe(
      200,
    );
  });

  it('with tokens, answers only a valid bearer token', async () => {
    const h = newCore();
    const origin = await started(h, tokens());
    const none = await send(origin, '/api/v1/controllers');
    expect(none.status).toBe(401);
    expect(none.headers['www-authenticate']).toContain('Bearer');
    expect((await send(origin, '/metrics', { token: 'wrong-secret-0123456789' })).status).toBe(401);
    expect((await send(origin, '/api/v1/controllers', { token: SECRET })).status).toBe(200);
  });

  it("switches an outlet as the token's name through the JSON API door", async () => {
    const emu = await emulator();
    const h = newCore();
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const origin = await started(h, tokens());
    const answer = await send(origin, '/api/v1/controllers/Bench%20A/outlets/3', {
      method: 'POST',
      token: SECRET,
      body: JSON.stringify({ action: 'off' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.json()).toMatchObject({ controller: 'Bench A', outlet: 3, action: 'off', failed: [] });
    await vi.waitFor(() => expect(emu.device.outlet(2).physicalState).toBe(false), { timeout: 15_000 });
    await vi.waitFor(
      () =>
        expect(
          h.activity().find((e) => e.controllerId === id && e.outlet === 3 && e.result === 'ok'),
        ).toMatchObject({ source: 'json-api', who: 'ci-runner' }),
      { timeout: 15_000 },
    );
  });

  it("refuses switching without tokens, a bad action, and a locked outlet with the unit's reason", async () => {
    const emu = await emulator();
    const h = newCore();
    await addController(h, emu, { name: 'Bench A' });
    const open = await started(h);
    const refused = await send(open, '/api/v1/controllers/Bench%20A/outlets/3', {
      method: 'POST',
      body: '{"action":"off"}',
    });
    expect(refused.status).toBe(403);
    expect(refused.text).toContain('--token-file');
    expect(emu.device.outlet(2).state).toBe(true);

    const origin = await started(h, tokens());
    const bad = await send(origin, '/api/v1/controllers/Bench%20A/outlets/3', {
      method: 'POST',
      token: SECRET,
      body: '{"action":"explode"}',
    });
    expect(bad.status).toBe(400);
    expect((bad.json() as { error: { message: string } }).error.message).toContain('"action": "on"');
    const wrongMethod = await send(origin, '/api/v1/controllers', { method: 'DELETE', token: SECRET });
    expect(wrongMethod.status).toBe(405);
    expect(wrongMethod.headers.allow).toBe('GET, HEAD');

    emu.device.lock(3);
    const locked = await send(origin, '/api/v1/controllers/Bench%20A/outlets/4', {
      method: 'POST',
      token: SECRET,
      body: '{"action":"off"}',
    });
    expect(locked.status).toBe(409);
    expect((locked.json() as { error: { code: string } }).error.code).toBe('LOCKED');
    expect(emu.device.outlet(3).state).toBe(true);
  });
});

describe('critical outlets', () => {
  it('are not switched off or cycled through the API without confirmCritical', async () => {
    const emu = await emulator();
    emu.device.setOutlet(0, { name: 'Router', critical: true });
    const h = newCore();
    await addController(h, emu, { name: 'Bench A' });
    const origin = await started(h, tokens());
    await vi.waitFor(
      async () => {
        const one = (await send(origin, '/api/v1/controllers/Bench%20A', { token: SECRET })).json() as {
          outlets: { number: number; critical: boolean }[];
        };
        expect(one.outlets[0]?.critical).toBe(true);
      },
      { timeout: 15_000 },
    );
    const post = (body: unknown) =>
      send(origin, '/api/v1/controllers/Bench%20A/outlets/1', {
        method: 'POST',
        token: SECRET,
        body: JSON.stringify(body),
      });
    const refused = await post({ action: 'off' });
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({
      error: {
        code: 'CRITICAL_UNCONFIRMED',
        message:
          'Outlet 1 (Router) on Bench A is marked critical, so nothing was switched: confirm that it may lose power, then ask again.',
        action: 'Send {"action": "off", "confirmCritical": true} to confirm.',
      },
    });
    expect((await post({ action: 'cycle' })).status).toBe(409);
    expect(emu.device.outlet(0).state).toBe(true);
    // Turning it on needs no confirmation; off does once confirmed.
    expect((await post({ action: 'on' })).status).toBe(200);
    expect((await post({ action: 'off', confirmCritical: true })).status).toBe(200);
    await vi.waitFor(() => expect(emu.device.outlet(0).physicalState).toBe(false), { timeout: 15_000 });
  });
});

describe('/metrics', () => {
  it('exposes controller up, outlet states, meters and the request metrics', async () => {
    const emu = await emulator();
    const h = newCore();
    await addController(h, emu, { name: 'Bench "A"' });
    emu.device.setOutlet(1, { state: false });
    const origin = await started(h);
    await send(origin, '/api/v1/controllers/nowhere');
    await vi.waitFor(
      async () => {
        const text = (await send(origin, '/metrics')).text;
        expect(text).toMatch(
          /^plugboard_outlet_physical_state\{controller="Bench \\"A\\"",id="[^"]+",outlet="2",name="[^"]*"\} 0$/m,
        );
      },
      { timeout: 15_000 },
    );
    const metrics = await send(origin, '/metrics');
    expect(metrics.headers['content-type']).toContain('version=0.0.4');
    const text = metrics.text;
    expect(text).toMatch(/^plugboard_controller_up\{controller="Bench \\"A\\"",id="[^"]+"\} 1$/m);
    expect(text).toMatch(/^plugboard_outlet_state\{[^}]*outlet="1"[^}]*\} 1$/m);
    expect(text).toMatch(/^plugboard_meter_value\{[^}]*quantity="voltage"[^}]*\} \d/m);
    expect(text).toMatch(/^plugboard_requests_total\{listener="api",status="404"\} 1$/m);
    expect(text).toMatch(/^plugboard_request_errors_total\{listener="api",code="NOT_FOUND"\} 1$/m);
    // Every sample line is `name{labels} number`: a scraper parses it.
    for (const line of text.split('\n').filter((l) => l && !l.startsWith('#')))
      expect(line).toMatch(/^[a-z_]+\{.*\} -?[\d.e+-]+$/);
  });
});
