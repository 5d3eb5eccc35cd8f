/**
 * Issue 12 item 5 in the web shell's own process (test/web/shell-child.ts, as `npm run web` runs it:
 * a console logger, no test runner to catch what is thrown): after every broken frame of raw-frames.ts
 * it is still running and serving, having logged each once.
 */
import { spawn } from 'node:child_process';
import { rm } from 'node:fs/promises';
import { resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cases, rawUpgrade } from './raw-frames';
import { Client, openSocket, standInRenderer, tokenProtocols } from './web-helpers';

let rendererDir: string;
beforeAll(async () => {
  rendererDir = await standInRenderer();
});
afterAll(async () => {
  await rm(rendererDir, { recursive: true, force: true });
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
