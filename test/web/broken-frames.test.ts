import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebShell, type RunningWebShell } from '../../src-main/web/server';
import { testCore, type TestCore } from './test-core';
import { cases, rawUpgrade } from './raw-frames';
import { Client, openSocket, standInRenderer, tokenProtocols } from './web-helpers';

/**
 * Issue 12 item 5: one malformed WebSocket frame used to end the web shell's process. Each frame is
 * written by hand on a raw TCP socket after a real upgrade handshake; the shell must close that
 * socket alone (with the close code RFC 6455 gives), log it once, and keep serving everyone else.
 */
let rendererDir: string;
let core: TestCore;
let shell: RunningWebShell;
let bystander: Client;
const logged: string[] = [];

beforeAll(async () => {
  rendererDir = await standInRenderer();
  core = testCore();
  shell = await startWebShell({ core, rendererDir, log: (message) => logged.push(message) });
  bystander = new Client(await openTokened());
});

afterAll(async () => {
  bystander?.socket.close();
  await shell?.close();
  await core?.dispose();
  await rm(rendererDir, { recursive: true, force: true });
});

function openTokened() {
  const host = `127.0.0.1:${shell.port}`;
  return openSocket(`ws://${host}/ws`, { Origin: `http://${host}` }, tokenProtocols(shell.token));
}

describe('a broken WebSocket frame', () => {
  it.each(cases)(
    '%s closes that socket alone (%i), is logged once, and the shell keeps serving',
    async (_name, code, frames) => {
      const before = logged.length;
      const { socket, received, ended } = await rawUpgrade(shell.port, shell.token);
      for (const bytes of frames()) socket.write(bytes);
      await ended;
      // The shell's close frame comes first: opcode 8 and the code.
      const reply = received();
      expect(reply[0]).toBe(0x88);
      expect(reply.readUInt16BE(2)).toBe(code);

      const lines = logged.slice(before);
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^Closed a WebSocket that sent a broken frame: .+ \(WS_ERR_\w+\)\.$/);

      // Everyone else carries on: the socket that was open all along, and a new one.
      expect(bystander.socket.readyState).toBe(bystander.socket.OPEN);
      expect(await bystander.call('app/info', {})).toMatchObject({ ok: true });
      const fresh = new Client(await openTokened());
      try {
        expect(await fresh.call('controllers/list', {})).toEqual({ ok: true, value: [] });
      } finally {
        fresh.socket.close();
      }
    },
  );
});

describe('the web shell in its own process', () => {
  it('is still running and serving after all nine broken frames, having logged each once', async () => {
    const root = resolve(import.meta.dirname, '..', '..');
    const child = spawn(resolve(root, 'node_modules', '.bin', 'tsx'), ['test/web/shell-child.ts'], {
      cwd: root,
      env: { ...process.env, PLUGBOARD_TEST_RENDERER: rendererDir },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
    try {
      const [, port, token] = await new Promise<string[]>((done, fail) => {
        child.stdout.on('data', () => {
          const ready = /READY (\d+) (\S+)/.exec(output);
          if (ready) done([...ready]);
        });
        void exited.then((code) =>
          fail(new Error(`the shell exited (${code}) before it was ready: ${output}`)),
        );
      });
      for (const [, , frames] of cases) {
        const { socket, ended } = await rawUpgrade(Number(port), token!);
        for (const bytes of frames()) socket.write(bytes);
        await ended;
      }
      const host = `127.0.0.1:${port}`;
      const client = new Client(
        await openSocket(`ws://${host}/ws`, { Origin: `http://${host}` }, tokenProtocols(token!)),
      );
      expect(await client.call('app/info', {})).toMatchObject({ ok: true });
      client.socket.close();
      expect(child.exitCode).toBeNull();
      expect(output.match(/Closed a WebSocket that sent a broken frame/g)).toHaveLength(cases.length);
    } finally {
      child.kill('SIGTERM');
      await exited;
    }
  });
});
