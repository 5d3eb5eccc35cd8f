/**
 * `plugboard sign-in` / `sign-out` with the real OS keychain (gnome-keyring under dbus-run-session,
 * keychain-session.ts) against a lab service over HTTPS with a pinned certificate: the session is kept
 * in the keychain only (nowhere in the config folder or the output), later `--service` commands act as
 * the account, sign-out ends it on the service and here, a session the service no longer takes says to
 * sign in again, a wrong password keeps nothing, and a lab's list of addresses shares one session.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_IDLE_MS, systemClock } from '../../src-main/core/index';
import { openConfStore } from '../../src-main/core/store';
import { KeytarSecretStore, MemorySecretStore } from '../../src-main/secrets';
import { loadTls } from '../../src-main/serve/tls';
import { addController, emulator, newCore, type CoreHarness } from '../core/harness';
import { ApiServices } from '../serve/api-services';
import { inKeychainSession, type Step } from './keychain-session';

vi.setConfig({ testTimeout: 120_000 });

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-cli-sign-in-'));
const PASSWORD = 'ada has a long password';
const services = new ApiServices();
afterEach(() => services.close());
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

interface Lab {
  h: CoreHarness;
  /** The api listeners' origins (two listeners on one Core: a lab's services on one store). */
  origins: string[];
  fingerprint: string;
  /** Move the service's clock on (sessions expire by it). */
  advance(ms: number): void;
}

async function lab(listenerCount = 1): Promise<Lab> {
  const dir = mkdtempSync(path.join(scratch, 'service-'));
  let offset = 0;
  const records = await services.records(dir);
  const h = newCore({
    store: openConfStore(dir),
    dataDir: dir,
    records,
    secrets: new MemorySecretStore(),
    clock: { ...systemClock, now: () => Date.now() + offset },
  });
  await addController(h, await emulator(), { name: 'Bench A' });
  await h.core.accounts!.add({
    name: 'ada',
    displayName: 'Ada Lovelace',
    role: 'operator',
    scope: { kind: 'all' },
    password: PASSWORD,
  });
  const tls = (await loadTls({ kind: 'self-signed' }, dir, ['127.0.0.1']))!;
  const origins: string[] = [];
  for (let i = 0; i < listenerCount; i++) origins.push((await services.listen(h.core, { tls })).origin);
  return { h, origins, fingerprint: tls.fingerprint256, advance: (ms) => (offset += ms) };
}

const at = (origins: string[], fingerprint: string) => [
  '--service',
  origins.join(','),
  '--service-fingerprint',
  fingerprint,
];
const signIn = (name: string, service: string[], password = PASSWORD): Step => ({
  name,
  args: [...service, 'sign-in', '--account', 'ada', '--password-stdin'],
  stdin: password,
});

/** The sessions the keychain keeps for these origins: account → token. */
async function keptFor(origins: string[]): Promise<Map<string, string>> {
  const keychain = new KeytarSecretStore();
  const kept = new Map<string, string>();
  for (const account of await keychain.accounts())
    if (account.startsWith('service-session:') && origins.some((o) => account.includes(o)))
      kept.set(account, (await keychain.get(account))!);
  return kept;
}

/** Every file under `dir` whose bytes contain `text`. */
function filesHolding(dir: string, text: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
    const file = path.join(dir, entry);
    if (statSync(file).isFile() && readFileSync(file).includes(text)) found.push(file);
  }
  return found;
}

describe('plugboard sign-in / sign-out', () => {
  it('keeps the session in the keychain only; later commands act as the account; sign-out ends it there and here', async () => {
    const { h, origins, fingerprint } = await lab();
    const service = at(origins, fingerprint);
    const { results, home } = await inKeychainSession([
      signIn('in', service),
      { name: 'on', args: [...service, 'on', 'Bench A:3', '--wait'] },
    ]);
    expect(results.in!.code, results.in!.stderr).toBe(0);
    expect(results.in!.stdout).toContain(
      `Signed in to ${origins[0]} as Ada Lovelace (ada, operator). The session is kept in this computer's keychain`,
    );
    const kept = await keptFor(origins);
    expect(kept.size).toBe(1);
    const token = [...kept.values()][0]!;
    expect(await h.core.accounts!.session(token)).not.toBeNull();
    expect(filesHolding(home, token)).toEqual([]);
    for (const result of Object.values(results)) {
      expect(`${result.stdout}${result.stderr}`).not.toContain(token);
      expect(`${result.stdout}${result.stderr}`).not.toContain(PASSWORD);
    }

    expect(results.on!.code, results.on!.stderr).toBe(0);
    expect(h.activity().find((e) => e.outlet === 3 && e.action === 'on')).toMatchObject({
      who: 'ada',
      result: 'ok',
    });

    const after = await inKeychainSession(
      [
        { name: 'out', args: [...service, 'sign-out'] },
        { name: 'again', args: [...service, 'off', 'Bench A:3'] },
      ],
      home,
    );
    expect(after.results.out!.code, after.results.out!.stderr).toBe(0);
    expect(after.results.out!.stdout).toContain('the service ended the session');
    expect(await h.core.accounts!.session(token)).toBeNull();
    expect((await keptFor(origins)).size).toBe(0);
    // Nothing kept: the command sends no session and the service refuses it.
    expect(after.results.again!.code).toBe(4);
    expect(h.activity().filter((e) => e.outlet === 3 && e.action === 'off')).toEqual([]);
  });

  it('a revoked or expired session says to sign in again (exit 4); sign-out then still deletes it here', async () => {
    const { h, origins, fingerprint, advance } = await lab();
    const service = at(origins, fingerprint);
    const sentence = `The Plugboard service at ${origins[0]} no longer accepts the session this computer kept for it: it expired, was revoked, or its account was disabled.`;
    const first = await inKeychainSession([signIn('in', service)]);
    expect(first.results.in!.code, first.results.in!.stderr).toBe(0);
    expect(await h.core.accounts!.revoke('ada')).toBe(1);
    const revoked = await inKeychainSession(
      [{ name: 'list', args: [...service, 'controllers', 'list'] }],
      first.home,
    );
    expect(revoked.results.list!.code).toBe(4);
    expect(revoked.results.list!.stderr).toContain(sentence);
    expect(revoked.results.list!.stderr).toContain(`plugboard sign-in --service ${origins[0]}`);

    const second = await inKeychainSession([signIn('in', service)], first.home);
    expect(second.results.in!.code, second.results.in!.stderr).toBe(0);
    advance(SESSION_IDLE_MS + 60_000);
    const expired = await inKeychainSession(
      [
        { name: 'list', args: [...service, 'controllers', 'list'] },
        { name: 'out', args: [...service, 'sign-out'] },
      ],
      first.home,
    );
    expect(expired.results.list!.code).toBe(4);
    expect(expired.results.list!.stderr).toContain(sentence);
    expect(expired.results.out!.code, expired.results.out!.stderr).toBe(0);
    expect(expired.results.out!.stdout).toContain('the session had already ended on the service');
    expect((await keptFor(origins)).size).toBe(0);
  });

  it("a wrong password gives the service's sentence (exit 4) and keeps nothing", async () => {
    const { origins, fingerprint } = await lab();
    const { results } = await inKeychainSession([
      signIn('wrong', at(origins, fingerprint), 'not the password'),
    ]);
    expect(results.wrong!.code).toBe(4);
    expect(results.wrong!.stderr).toContain('The name or the password is wrong.');
    expect(results.wrong!.stderr).not.toContain('not the password');
    expect((await keptFor(origins)).size).toBe(0);
  });

  it("a lab's addresses share one session: signed in with the list, each address works alone; sign-out at one ends it for all", async () => {
    const { h, origins, fingerprint } = await lab(2);
    const [a, b] = origins as [string, string];
    const { results, home } = await inKeychainSession([
      signIn('in', at([a, b], fingerprint)),
      { name: 'b', args: [...at([b], fingerprint), 'on', 'Bench A:5', '--wait'] },
      { name: 'ba', args: [...at([b, a], fingerprint), 'on', 'Bench A:6', '--wait'] },
    ]);
    expect(results.in!.code, results.in!.stderr).toBe(0);
    expect((await keptFor(origins)).size).toBe(2);
    for (const [step, outlet] of [
      ['b', 5],
      ['ba', 6],
    ] as const) {
      expect(results[step]!.code, results[step]!.stderr).toBe(0);
      expect(h.activity().find((e) => e.outlet === outlet && e.action === 'on')).toMatchObject({
        who: 'ada',
      });
    }
    const out = await inKeychainSession([{ name: 'out', args: [...at([a], fingerprint), 'sign-out'] }], home);
    expect(out.results.out!.code, out.results.out!.stderr).toBe(0);
    expect((await keptFor(origins)).size).toBe(0);
  });
  it('sign-out with the service unreachable deletes the session here and says the service still takes it (exit 3)', async () => {
    const { h, origins, fingerprint } = await lab();
    const service = at(origins, fingerprint);
    const first = await inKeychainSession([signIn('in', service)]);
    expect(first.results.in!.code, first.results.in!.stderr).toBe(0);
    const token = [...(await keptFor(origins)).values()][0]!;
    await services.closeListeners();
    const { results } = await inKeychainSession(
      [{ name: 'out', args: [...service, 'sign-out'] }],
      first.home,
    );
    expect(results.out!.code).toBe(3);
    expect(results.out!.stderr).toContain(
      "Deleted the session from this computer's keychain, but the service could not be told",
    );
    expect(results.out!.stderr).toContain('so it still accepts the session until it expires');
    expect((await keptFor(origins)).size).toBe(0);
    expect(await h.core.accounts!.session(token)).not.toBeNull();
  });
});
