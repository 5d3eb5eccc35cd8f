/** `plugboard serve --web-window`: on the api listener, and over HTTPS whenever it faces the network. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from '../../src-main/serve/options';

const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-web-window-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PLUGBOARD_CONFIG_DIR: path.join(dir, 'config') };

async function refused(args: string[]): Promise<string> {
  const error = await parseServeArgs(args, env).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('plugboard serve --web-window', () => {
  it('is off unless asked for', async () => {
    expect((await parseServeArgs([], env)).webWindow).toBe(false);
    expect((await parseServeArgs(['--web-window'], env)).webWindow).toBe(true);
  });

  it('needs the api listener', async () => {
    expect(await refused(['--listen', 'pdudaemon', '--web-window'])).toBe(
      '--web-window is served by the api listener, which is not started: add --listen api (or --listen api=ADDR:PORT).',
    );
  });

  it('on a lab network, comes with HTTPS: self-signed by default, refused with --no-tls', async () => {
    const network = ['--listen', 'api=192.168.10.5:16422', '--allow', '192.168.10.0/24', '--web-window'];
    expect((await parseServeArgs(network, env)).tls).toEqual({ kind: 'self-signed' });
    expect(await refused([...network, '--no-tls'])).toBe(
      '--web-window with --no-tls: the api listener (192.168.10.5:16422) faces the network, and people would send their passwords and sessions in clear. Leave out --no-tls (a self-signed certificate is made), give --tls-cert and --tls-key, or listen on 127.0.0.1.',
    );
    // On loopback, plain HTTP stays on this machine.
    expect((await parseServeArgs(['--listen', 'api', '--web-window', '--no-tls'], env)).webWindow).toBe(true);
  });
});
