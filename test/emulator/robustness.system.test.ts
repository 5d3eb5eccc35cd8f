import { connect } from 'node:net';
import DigestClient from 'digest-fetch';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { curl, json, python } from './clients';

let emu: RunningEmulator;
let api: string;
const OUTLETS = 16;

beforeAll(async () => {
  emu = await startEmulator({
    outlets: OUTLETS,
    cycleDelay: 0.3,
    sequenceDelay: 0,
    initialStates: Array(OUTLETS).fill(false) as boolean[],
  });
  api = `${emu.url}/restapi`;
});
afterAll(() => emu.close());

/** Sends raw bytes, half-closes, and returns whatever came back before the server closed. */
function raw(payload: Buffer | string, timeoutMs = 10_000): Promise<string> {
  const { hostname, port } = new URL(emu.url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.end(payload));
    const timer = setTimeout(() => socket.destroy(), timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve(Buffer.concat(chunks).toString('latin1'));
    });
  });
}

const statusOf = (answer: string): number => Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1] ?? 0);
const BASIC = 'Authorization: Basic YWRtaW46MTIzNA==\r\n';

describe('many clients at once', () => {
  it('twenty curl processes switching different outlets all succeed and the states add up', async () => {
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        curl(`${api}/relay/outlets/${i % OUTLETS}/transient_state/`, {
          method: 'PUT',
          headers: { 'X-CSRF': 'x' },
          data: 'value=true',
        }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(Array(20).fill(204));
    expect(emu.device.outlets().every((o) => o.transientState)).toBe(true);
  });

  it('sixteen Python threads mixing reads and writes get correct answers', async () => {
    emu.device.latency = 20;
    emu.device.stats.reset();
    const requests = Array.from({ length: 64 }, (_, i) =>
      i % 2 === 0
        ? { path: `/restapi/relay/outlets/${i % OUTLETS}/name/` }
        : {
            method: 'PUT',
            path: `/restapi/relay/outlets/${i % OUTLETS}/transient_state/`,
            headers: { 'X-CSRF': 'x' },
            body: 'value=false',
          },
    );
    const results = await python({ base: emu.url, parallel: 16, requests });
    emu.device.latency = 0;
    results.forEach((result, i) => {
      if (i % 2 === 0) expect(JSON.parse(result.body)).toBe(`Outlet ${(i % OUTLETS) + 1}`);
      else expect(result.status).toBe(204);
    });
    expect(
      emu.device
        .outlets()
        .filter((o) => o.index % 2 === 1)
        .every((o) => !o.transientState),
    ).toBe(true);
    expect(emu.device.stats.maxInFlight).toBeGreaterThan(1);
    expect(emu.device.stats.byStatus[500]).toBeUndefined();
  });

  it.each([false, true])(
    'digest-fetch reuses one nonce for a run of requests (qop offered: %s)',
    async (qop) => {
      const controller = await startEmulator({ qop });
      try {
        const client = new DigestClient('admin', '1234');
        const statuses: number[] = [];
        for (const path of ['relay/name/', 'config/serial/', 'cred/'])
          statuses.push((await client.fetch(`${controller.url}/restapi/${path}`)).status);
        expect(statuses).toEqual([200, 200, 200]);
        // One challenge, then the nonce (and, with qop, a rising nonce count) is reused.
        expect(controller.device.stats.unauthorized).toBe(1);
        expect(controller.device.stats.requests).toBe(4);
      } finally {
        await controller.close();
      }
    },
  );
});

describe('malformed input', () => {
  beforeAll(() => emu.device.setConfig({ allowPlaintextLogins: true }));
  afterAll(() => emu.device.setConfig({ allowPlaintextLogins: false }));

  const noise = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 256));
  const clientHello = Buffer.from('16030100a10100009d0303' + '00'.repeat(150), 'hex');
  const request = (line: string, headers = '', body = ''): string =>
    `${line}\r\nHost: x\r\n${headers}\r\n${body}`;
  const cases: [string, Buffer | string][] = [
    ['garbage', 'GARBAGE\r\n\r\n'],
    ['an unknown method', request('FOO /restapi/ HTTP/1.1')],
    ['an odd HTTP version', request('GET /restapi/ HTTP/9.9')],
    ['HTTP/0.9', 'GET /restapi/\r\n\r\n'],
    ['a header without a colon', request('GET /restapi/ HTTP/1.1', 'BadHeader\r\n')],
    ['headers too large', request('GET /restapi/ HTTP/1.1', `X-Big: ${'a'.repeat(20_000)}\r\n`)],
    ['an invalid Content-Length', request('PUT /restapi/relay/name/ HTTP/1.1', 'Content-Length: abc\r\n')],
    [
      'two Content-Lengths',
      request('PUT /restapi/relay/name/ HTTP/1.1', 'Content-Length: 3\r\nContent-Length: 5\r\n', 'abc'),
    ],
    [
      'broken chunking',
      request(
        'PUT /restapi/relay/name/ HTTP/1.1',
        `${BASIC}X-CSRF: x\r\nTransfer-Encoding: chunked\r\n`,
        'zz\r\nhello\r\n',
      ),
    ],
    ['binary noise', noise],
    ['NUL bytes', Buffer.alloc(64)],
    ['a TLS ClientHello', clientHello],
    ['a control character in the path', request('GET /restapi/\x01/ HTTP/1.1')],
    ['an empty Digest', request('GET /restapi/ HTTP/1.1', 'Authorization: Digest\r\n')],
    [
      'an unbalanced quote',
      request('GET /restapi/ HTTP/1.1', 'Authorization: Digest username="admin, realm="x\r\n'),
    ],
    [
      'empty digest fields',
      request('GET /restapi/ HTTP/1.1', 'Authorization: Digest username=,,,realm=\r\n'),
    ],
    [
      'a hundred digest fields',
      request(
        'GET /restapi/ HTTP/1.1',
        `Authorization: Digest ${Array.from({ length: 100 }, (_, i) => `k${i}="v"`).join(', ')}\r\n`,
      ),
    ],
    ['Basic that is not base64', request('GET /restapi/ HTTP/1.1', 'Authorization: Basic !!!not-base64\r\n')],
    ['an empty Bearer', request('GET /restapi/ HTTP/1.1', 'Authorization: Bearer \r\n')],
    ['an empty Authorization', request('GET /restapi/ HTTP/1.1', 'Authorization: \r\n')],
    [
      'non-ASCII in Authorization',
      Buffer.concat([
        Buffer.from('GET /restapi/ HTTP/1.1\r\nHost: x\r\nAuthorization: Digest username="'),
        Buffer.from([0xe9, 0xff]),
        Buffer.from('"\r\n\r\n'),
      ]),
    ],
    ['a lone %', request('GET /restapi/%/ HTTP/1.1', BASIC)],
    [
      'raw non-ASCII bytes in a path without its slash',
      Buffer.concat([
        Buffer.from('GET /restapi/caf'),
        Buffer.from([0xe9]),
        Buffer.from(` HTTP/1.1\r\nHost: x\r\n${BASIC}\r\n`),
      ]),
    ],
    ['%G0', request('GET /restapi/%G0/ HTTP/1.1', BASIC)],
    ['%00', request('GET /restapi/%00/ HTTP/1.1', BASIC)],
    ['overlong UTF-8', request('GET /restapi/%C0%AF/ HTTP/1.1', BASIC)],
    ['encoded dot segments', request('GET /restapi/..%2F..%2Fetc/passwd/ HTTP/1.1', BASIC)],
    ['a very long path', request(`GET /restapi/${'a/'.repeat(4000)} HTTP/1.1`, BASIC)],
    ['nested all;', request(`GET /restapi/${'all;/'.repeat(50)} HTTP/1.1`, BASIC)],
    ['a huge depth', request('GET /restapi/ HTTP/1.1', `${BASIC}Range: dli-depth=99999999999\r\n`)],
    ['a negative depth', request('GET /restapi/ HTTP/1.1', `${BASIC}Range: dli-depth=-1\r\n`)],
    [
      'an unknown tunnelled verb',
      request(
        'POST /restapi/relay/name/ HTTP/1.1',
        `${BASIC}X-CSRF: x\r\nX-HTTP-Method: CONNECT\r\nContent-Length: 0\r\n`,
      ),
    ],
    [
      'a huge body',
      request(
        'PUT /restapi/relay/name/ HTTP/1.1',
        `${BASIC}X-CSRF: x\r\nContent-Length: 1048576\r\n`,
        'a'.repeat(1_048_576),
      ),
    ],
    [
      'invalid JSON',
      request(
        'PUT /restapi/relay/name/ HTTP/1.1',
        `${BASIC}X-CSRF: x\r\nContent-Type: application/json\r\nContent-Length: 5\r\n`,
        '{"a":',
      ),
    ],
    [
      'deeply nested JSON',
      request(
        'POST /restapi/script/start/ HTTP/1.1',
        `${BASIC}X-CSRF: x\r\nContent-Type: application/json\r\nContent-Length: 60000\r\n`,
        '['.repeat(60_000),
      ),
    ],
    [
      'invalid UTF-8 in a body',
      Buffer.concat([
        Buffer.from(
          request(
            'PUT /restapi/relay/name/ HTTP/1.1',
            `${BASIC}X-CSRF: x\r\nContent-Type: text/plain\r\nContent-Length: 3\r\n`,
          ),
        ),
        Buffer.from([0xc3, 0x28, 0xff]),
      ]),
    ],
    [
      'a body shorter than announced',
      request(
        'PUT /restapi/relay/name/ HTTP/1.1',
        `${BASIC}X-CSRF: x\r\nContent-Length: 100\r\n`,
        'value=short',
      ),
    ],
    [
      'a __proto__ user',
      request(
        'POST /restapi/auth/users/ HTTP/1.1',
        `${BASIC}X-CSRF: x\r\nContent-Type: application/json\r\nContent-Length: 63\r\n`,
        '{"__proto__":{"isAdmin":true},"name":"proto","password":"pw1"} ',
      ),
    ],
    [
      'a JSON patch of nonsense',
      request(
        'PATCH /restapi/relay/outlets/0/ HTTP/1.1',
        `${BASIC}X-CSRF: x\r\nContent-Type: application/json-patch+json\r\nContent-Length: 27\r\n`,
        '[{"op":"move","from":"/a"}]',
      ),
    ],
    [
      'a script source of a thousand commas',
      request(
        'POST /restapi/script/start/ HTTP/1.1',
        `${BASIC}X-CSRF: x\r\nContent-Type: application/json\r\nContent-Length: 1062\r\n`,
        JSON.stringify([{ user_function: 'flash_a_light', source: `flash_a_light(${','.repeat(1000)})` }]),
      ),
    ],
  ];

  it.each(cases)('survives %s: a 4xx answer or a closed connection, never a 5xx', async (_name, payload) => {
    const answer = await raw(payload);
    const status = statusOf(answer);
    if (answer !== '') expect(status, answer.slice(0, 200)).toBeGreaterThanOrEqual(400);
    expect(status).toBeLessThan(500);
  });

  it('answers odd but valid requests (3000 repeated matrix keys) without trouble', async () => {
    const answer = await raw(
      request(`GET /restapi/relay/outlets/=${Array(3000).fill(0).join(',')}/state/ HTTP/1.1`, BASIC),
    );
    expect(statusOf(answer)).toBe(207);
    expect(answer.match(/^Link: /gm)).toHaveLength(3000);
  });

  it('still answers correctly after the whole sweep, with no internal errors', async () => {
    const errors = vi.spyOn(console, 'error');
    for (const [, payload] of cases) await raw(payload);
    expect(errors).not.toHaveBeenCalled();
    errors.mockRestore();
    expect(({} as Record<string, unknown>).isAdmin).toBeUndefined();
    expect(emu.device.users().map((u) => u.name)).not.toContain('proto');
    const answer = await curl(`${api}/relay/outlets/all;/name/`);
    expect(answer.status).toBe(207);
    expect(json(answer)).toHaveLength(OUTLETS);
    expect(emu.device.stats.byStatus[500]).toBeUndefined();
  });

  it('answers two pipelined requests on one connection in order', async () => {
    const one = request('GET /restapi/relay/outlets/0/name/ HTTP/1.1', BASIC);
    const two = request('GET /restapi/config/version/ HTTP/1.1', BASIC);
    const answer = await raw(one + two);
    expect(answer.match(/HTTP\/1\.1 200/g)).toHaveLength(2);
    expect(answer.indexOf('"Outlet 1"')).toBeLessThan(answer.indexOf('"1.12.14.0"'));
  });
});
