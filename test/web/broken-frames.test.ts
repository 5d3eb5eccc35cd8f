import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startWebShell, type RunningWebShell } from '../../src-main/web/server';
import { testCore, type TestCore } from './test-core';
import { cases, rawUpgrade } from './raw-frames';
import { Client, openSocket, standInRenderer, tokenProtocols } from './web-helpers';

/**
 * Issue 12 item 5: one malformed WebSocket frame used to end the web shell's process. Each frame is
 * written by hand on a raw TCP socket after a real upgrade handshake; the shell must close that
 * socket alone (with the close code RFC 6455 gives), log it once, and keep serving everyone else.
 * The same in the shell's own process, with nothing to catch what is thrown: broken-frames.system.test.ts.
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
