import { createHmac } from 'node:crypto';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebShell, type RunningWebShell } from '../../src-main/web/server';
import { MAX_LINE } from '../../src-main/web/log-limit';
import { testCore, type TestCore } from './test-core';
import { Client, get, openSocket, standInRenderer, tokenProtocols } from './web-helpers';

/**
 * Issue 12 item 2: a cookie is sent to every port of 127.0.0.1, so nothing a browser attaches by
 * itself may open a session. These clients are not browsers: they forge Host and Origin at will.
 */
let rendererDir: string;
let core: TestCore;
let shell: RunningWebShell;
let host: string;
let origin: string;
const logged: string[] = [];

beforeAll(async () => {
  rendererDir = await standInRenderer();
  core = testCore();
  shell = await startWebShell({ core, rendererDir, log: (message) => logged.push(message) });
  host = `127.0.0.1:${shell.port}`;
  origin = `http://${host}`;
});

afterAll(async () => {
  await shell?.close();
  await core?.dispose();
  await rm(rendererDir, { recursive: true, force: true });
});

/** The cookie the shell used to set for this run (HMAC of the token), as a stolen copy would carry it. */
function oldSessionCookie(): string {
  const value = createHmac('sha256', shell.token).update('plugboard web session').digest('base64url');
  return `plugboard_${shell.port}=${value}`;
}

describe('a non-browser client forging Host and Origin', () => {
  const url = () => `ws://${host}/ws`;
  const forged = () => ({ Host: host, Origin: origin });

  it('opens no session without the token', async () => {
    await expect(openSocket(url(), forged())).rejects.toThrow('refused with 403');
    await expect(openSocket(url(), forged(), ['plugboard.v1'])).rejects.toThrow('refused with 403');
    await expect(openSocket(url(), forged(), ['plugboard.v1', 'plugboard.token.'])).rejects.toThrow(
      'refused with 403',
    );
    // The token offered twice (once right, once wrong) is as good as a wrong one.
    await expect(
      openSocket(url(), forged(), [...tokenProtocols(shell.token), 'plugboard.token.guess']),
    ).rejects.toThrow('refused with 403');
  });

  it('gets nothing from the old cookie, nor from the token in the address', async () => {
    await expect(openSocket(url(), { ...forged(), Cookie: oldSessionCookie() })).rejects.toThrow(
      'refused with 403',
    );
    await expect(
      openSocket(`${url()}?token=${shell.token}`, { ...forged(), Cookie: oldSessionCookie() }),
    ).rejects.toThrow('refused with 403');
  });

  it('learns nothing from what a cookie could fetch: no page or script holds the token or sets a cookie', async () => {
    for (const path of ['/', '/index.html', '/plugboard-web-preload.js', '/assets/app.js']) {
      const answer = await get(shell.port, path, { ...forged(), Cookie: oldSessionCookie() });
      expect(answer.status).toBe(200);
      expect(answer.body).not.toContain(shell.token);
      expect(answer.headers['set-cookie']).toBeUndefined();
    }
  });

  it('opens a session only by offering the token, and the Host and Origin must still be right', async () => {
    await expect(
      openSocket(url(), { Host: `evil.example:${shell.port}`, Origin: origin }, tokenProtocols(shell.token)),
    ).rejects.toThrow('refused with 403');
    await expect(
      openSocket(
        url(),
        { Host: host, Origin: `http://localhost:${shell.port}` },
        tokenProtocols(shell.token),
      ),
    ).rejects.toThrow('refused with 403');
    const client = new Client(await openSocket(url(), forged(), tokenProtocols(shell.token)));
    try {
      expect(await client.call('app/info', {})).toMatchObject({ ok: true, value: { name: 'Plugboard' } });
    } finally {
      client.socket.close();
    }
  });
});

describe('logging refusals (issue 12 item 4)', () => {
  it('cuts a huge Host header and stops logging a flood of refused upgrades', async () => {
    const before = logged.length;
    const hugeHost = `${'h'.repeat(6000)}.example`;
    const upgrade = {
      Connection: 'Upgrade',
      Upgrade: 'websocket',
      'Sec-WebSocket-Version': '13',
      'Sec-WebSocket-Key': 'dGhlIHNhbXBsZSBub25jZQ==',
    };
    for (let i = 0; i < 120; i++) {
      const answer = await get(shell.port, '/ws', { ...upgrade, Host: hugeHost, Origin: origin });
      expect(answer.status).toBe(403);
    }
    const lines = logged.slice(before);
    expect(lines.length).toBeGreaterThan(0);
    expect(lines.length).toBeLessThanOrEqual(20);
    for (const line of lines) {
      expect(line.length).toBeLessThanOrEqual(MAX_LINE);
      expect(line).toContain('wrong Host');
    }
    // The shell still serves the page.
    expect((await get(shell.port, '/', { Host: host })).status).toBe(200);
  });
});
