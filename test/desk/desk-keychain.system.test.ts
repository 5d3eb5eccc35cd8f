/**
 * The desk and `plugboard sign-in` keep a lab's session in the same OS keychain entries (gnome-keyring
 * under dbus-run-session, test/cli/keychain-session.ts): a desk attaching to a lab the CLI signed in to
 * is signed in at once, the desk's sign-out deletes the entry the CLI used, and the desk's sign-in is
 * what a later `plugboard --service` command acts with. Nothing of the session is in a file.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { afterEach, expect, it, vi } from 'vitest';
import type { LabSummary } from '../../src-preload/model';
import { KeytarSecretStore } from '../../src-main/secrets';
import { inKeychainSession } from '../cli/keychain-session';
import { cleanUp } from '../core/harness';
import { PASSWORD, startDesk, startLab, type Cleanup } from './lab-fixture';

vi.setConfig({ testTimeout: 120_000 });

const cleanups: Cleanup[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
  await cleanUp();
});

function filesHolding(dir: string, text: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((entry) => path.join(dir, entry))
    .filter((file) => statSync(file).isFile() && readFileSync(file).includes(text));
}

it('shares the keychain entries with `plugboard sign-in`, both ways', async () => {
  const lab = await startLab(cleanups, [{ name: 'ada', role: 'operator' }]);
  const service = ['--service', lab.origin, '--service-fingerprint', lab.fingerprint];
  const first = await inKeychainSession([
    {
      name: 'sign-in',
      args: [...service, 'sign-in', '--account', 'ada', '--password-stdin'],
      stdin: PASSWORD,
    },
  ]);
  expect(first.results['sign-in']!.code, first.results['sign-in']!.stderr).toBe(0);

  const keychain = new KeytarSecretStore();
  const entry = `service-session:${lab.origin} ${lab.fingerprint}`;
  const cliToken = await keychain.get(entry);
  expect(cliToken).not.toBeNull();

  const desk = startDesk(cleanups, { secrets: keychain });
  const added = await desk.ok<LabSummary>('labs/add', {
    addresses: [lab.origin],
    fingerprints: [lab.fingerprint],
  });
  const online = await desk.lab(added.id, (s) => s.status === 'online');
  expect(online.account).toMatchObject({ who: 'ada' });

  await desk.ok('labs/signOut', { lab: added.id });
  expect(await keychain.get(entry)).toBeNull();
  expect((await lab.h.core.accounts!.list())[0]!.sessions).toBe(0);

  await desk.ok('labs/signIn', { lab: added.id, name: 'ada', password: PASSWORD });
  const deskToken = await keychain.get(entry);
  expect(deskToken).not.toBeNull();
  expect(deskToken).not.toBe(cliToken);
  const later = await inKeychainSession([{ name: 'on', args: [...service, 'on', 'Bench A:6'] }], first.home);
  expect(later.results['on']!.code, later.results['on']!.stderr).toBe(0);
  expect(lab.h.activity().findLast((e) => e.outlet === 6)).toMatchObject({ source: 'cli', who: 'ada' });
  expect(filesHolding(first.home, deskToken!)).toEqual([]);
});
