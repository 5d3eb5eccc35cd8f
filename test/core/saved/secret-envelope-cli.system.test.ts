/**
 * The secret binding (secret-envelope.test.ts) for the built `plugboard` command with the real keychain
 * (the run's shared gnome-keyring): a `--controller` run sends nothing to an address config.json was
 * changed to by hand, until `--reuse-secret`; confirmed once, the secret is bound to the new address.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedKeychainEnv } from '../../secrets/shared-keychain';
import { cleanUpServe, cliBuilt, scratchDir } from '../../serve/built-serve';
import { emulator } from '../harness';
import { digestAs, editByHand } from '../hand-edit';
import { recordingProxy, type RecordingProxy } from '../recording-proxy';

const PASSWORD = 'Bound-Pw-4471';
const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
  await cleanUpServe();
});

async function proxyTo(target: string): Promise<RecordingProxy> {
  const proxy = await recordingProxy(target);
  proxies.push(proxy);
  return proxy;
}

describe('a secret bound to its place in the keychain', () => {
  it('a CLI --controller run sends nothing to an address config.json was changed to by hand, until --reuse-secret', async () => {
    const emu = await emulator({ password: PASSWORD });
    const saved = await proxyTo(emu.url);
    const elsewhere = await proxyTo(emu.url);
    const scratch = scratchDir('plugboard-envelope-');
    const dir = path.join(scratch, 'config');
    const home = path.join(scratch, 'home');
    mkdirSync(home);
    const env = { ...sharedKeychainEnv(home), PLUGBOARD_CONFIG_DIR: dir };
    const run = (args: string[], stdin = '') => cliBuilt(args, env, stdin);

    const added = await run(
      ['--url', saved.url, '--user', 'admin', '--password-stdin', 'controllers', 'add', 'Bench'],
      PASSWORD,
    );
    expect(added.code, added.stderr).toBe(0);
    editByHand(dir, (c) => (c.url = elsewhere.url));

    const refused = await run(['--controller', 'Bench', 'outlets']);
    // Through the Core (issue 15): refused as an authentication problem (exit 4), in the CLI's words.
    expect(refused.code, refused.stderr).toBe(4);
    expect(refused.stderr).toMatch(
      /address .* changed\): Plugboard sent it nowhere\. .*--reuse-secret.*--password-stdin/,
    );
    expect(elsewhere.authorizations).toEqual([]);

    const confirmed = await run(['--controller', 'Bench', '--reuse-secret', '--json', 'outlets']);
    expect(confirmed.code, confirmed.stderr).toBe(0);
    expect(elsewhere.authorizations.some(digestAs('admin'))).toBe(true);
    // Confirmed once: bound to the new address from now on.
    const again = await run(['--controller', 'Bench', '--json', 'outlets']);
    expect(again.code, again.stderr).toBe(0);
    for (const result of [added, refused, confirmed, again])
      expect(result.stdout + result.stderr).not.toContain(PASSWORD);
    expect(readFileSync(path.join(dir, 'config.json'), 'utf8')).not.toContain(PASSWORD);
  });
});
