/**
 * `controllers list|add|remove` and `--controller NAME` with the real OS keychain (keychain-session.ts:
 * a gnome-keyring whose files live in a temporary HOME), and the saved list in a temporary
 * PLUGBOARD_CONFIG_DIR.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { normalizeFingerprint } from '../../src-main/dli/tls-pin';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';
import { recordingProxy, type RecordingProxy } from '../core/recording-proxy';
import { inKeychainSession } from './keychain-session';
import { PROFILES } from './cli-fixtures';

const running: RunningEmulator[] = [];
const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((e) => e.close()));
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

// Not rerun by the real-unit project (only fast files are): each profile here.
describe.each(PROFILES)('%s', (_, profile) => {
  it('adds after verifying, keeps secrets in the keychain only, and --controller NAME works for commands', async () => {
    const password = 'keychain-only-5813';
    const plain = await startEmulator({ password, sequenceDelay: 0, ...profile });
    const secure = await startEmulator({ password, tls: true, sequenceDelay: 0, ...profile });
    // The token's unit: one address is saved once (a duplicate address is refused, as in the window).
    const tokenUnit = await startEmulator({ password, sequenceDelay: 0, ...profile });
    const other = await startEmulator({ password, sequenceDelay: 0, ...profile });
    running.push(plain, secure, tokenUnit, other);
    for (let i = 0; i < 8; i++) plain.device.setOutlet(i, { state: false });
    for (let i = 0; i < 8; i++) tokenUnit.device.setOutlet(i, { state: false });
    const token = tokenUnit.device.issueToken('bench-bot', [
      '/relay/outlets/all;/=state,transient_state/?access=modify',
    ]);
    const fingerprint = normalizeFingerprint(secure.device.certificate!.fingerprint256);
    const auth = ['--user', 'admin', '--password', password];

    const { results: r, configDir } = await inKeychainSession([
      {
        name: 'wrongPassword',
        args: ['--url', plain.url, '--password', 'nope-nope', 'controllers', 'add', 'Bench B'],
      },
      { name: 'add', args: ['--url', plain.url, ...auth, 'controllers', 'add', 'Bench A'] },
      { name: 'duplicate', args: ['--url', other.url, ...auth, 'controllers', 'add', 'bench a'] },
      { name: 'sameAddress', args: ['--url', plain.url, ...auth, 'controllers', 'add', 'Bench Z'] },
      { name: 'untrusted', args: ['--url', secure.url, ...auth, 'controllers', 'add', 'Secure'] },
      {
        name: 'addSecure',
        args: [
          '--url',
          secure.url,
          ...auth,
          '--accept-fingerprint',
          fingerprint,
          'controllers',
          'add',
          'Secure',
        ],
      },
      {
        name: 'addToken',
        args: ['--url', tokenUnit.url, '--token', token, '--json', 'controllers', 'add', 'Bot'],
      },
      { name: 'list', args: ['controllers', 'list', '--json'] },
      { name: 'listHuman', args: ['controllers', 'list'] },
      { name: 'outlets', args: ['--controller', 'bench a', '--json', 'outlets'] },
      { name: 'on', args: ['--controller', 'Bench A', 'on', '2'] },
      { name: 'secureOutlets', args: ['--controller', 'Secure', 'outlets', '--json'] },
      { name: 'tokenOn', args: ['--controller', 'Bot', 'on', '5'] },
      { name: 'remove', args: ['controllers', 'remove', 'Bench A'] },
      { name: 'afterRemove', args: ['--controller', 'Bench A', 'outlets'] },
      { name: 'listAfter', args: ['controllers', 'list', '--json'] },
    ]);

    expect(r.add!.code, r.add!.stderr).toBe(0);
    expect(r.add!.stdout).toMatch(
      /^Saved "Bench A" \(LPC9 .*firmware 1\.12\.14\.0, 8 outlets, meters, administrator\)/,
    );
    expect(r.wrongPassword!.code, r.wrongPassword!.stderr).toBe(4);
    expect(r.wrongPassword!.stderr).toContain('[AUTH_FAILED]');
    expect(r.duplicate!.code, r.duplicate!.stderr).toBe(1);
    expect(r.duplicate!.stderr).toContain('named "Bench A" is already saved');
    // The same address under another name: refused before anything is sent, as the window refuses it.
    expect(r.sameAddress!.code, r.sameAddress!.stderr).toBe(1);
    expect(r.sameAddress!.stderr).toContain(`${plain.url} is already saved as "Bench A"`);
    expect(r.untrusted!.code, r.untrusted!.stderr).toBe(4);
    expect(r.untrusted!.stderr).toContain(`--accept-fingerprint ${fingerprint}`);
    expect(r.addSecure!.code, r.addSecure!.stderr).toBe(0);
    expect(r.addToken!.code, r.addToken!.stderr).toBe(0);

    const list = JSON.parse(r.list!.stdout) as Record<string, unknown>[];
    expect(list.map((c) => c.name)).toEqual(['Bench A', 'Secure', 'Bot']);
    expect(list[0]).toMatchObject({
      url: plain.url,
      auth: 'digest',
      user: 'admin',
      fingerprint: null,
      has_secret: true,
    });
    expect(list[1]).toMatchObject({ url: secure.url, fingerprint });
    expect(list[2]).toMatchObject({ auth: 'token', user: '', has_secret: true });
    expect(r.listHuman!.stdout).toMatch(
      /^NAME\s+URL\s+LOGIN\s+CERTIFICATE\nBench A\s+http:\/\/127\.0\.0\.1:\d+\s+digest admin/,
    );

    // The settings file knows the controllers but holds no secret.
    const saved = readFileSync(join(configDir, 'config.json'), 'utf8');
    expect(saved).toContain(secure.url);
    expect(saved).not.toContain(password);
    expect(saved).not.toContain(token.split('.').at(-1)!);
    for (const step of Object.values(r)) expect(step.stdout + step.stderr).not.toContain(password);

    expect(r.outlets!.code, r.outlets!.stderr).toBe(0);
    expect(JSON.parse(r.outlets!.stdout)).toHaveLength(8);
    expect(r.on!.code, r.on!.stderr).toBe(0);
    expect(plain.device.outlet(1).state).toBe(true);
    expect(r.secureOutlets!.code, r.secureOutlets!.stderr).toBe(0);
    expect(r.tokenOn!.code, r.tokenOn!.stderr).toBe(0);
    expect(tokenUnit.device.outlet(4).state).toBe(true);

    expect(r.remove!.code, r.remove!.stderr).toBe(0);
    expect(r.afterRemove!.code, r.afterRemove!.stderr).toBe(1);
    expect(r.afterRemove!.stderr).toContain('No saved controller is called "Bench A"');
    expect((JSON.parse(r.listAfter!.stdout) as { name: string }[]).map((c) => c.name)).toEqual([
      'Secure',
      'Bot',
    ]);
  });

  it('--controller never sends the saved password to another user, and to a new certificate only with --reuse-secret or typed again', async () => {
    const password = 'saved-for-admin-2291';
    const plain = await startEmulator({ password, sequenceDelay: 0, ...profile });
    running.push(plain);
    const home = await recordingProxy(plain.url);
    const secure = await recordingProxy(plain.url, { tls: true });
    proxies.push(home, secure);
    const typed = ['--user', 'admin', '--password-stdin'];

    const first = await inKeychainSession([
      { name: 'add', args: ['--url', home.url, ...typed, 'controllers', 'add', 'Bench'], stdin: password },
      {
        name: 'addSecure',
        args: [
          '--url',
          secure.url,
          ...typed,
          '--accept-fingerprint',
          secure.fingerprint!,
          'controllers',
          'add',
          'Secure',
        ],
        stdin: password,
      },
    ]);
    expect(first.results.add!.code, first.results.add!.stderr).toBe(0);
    expect(first.results.addSecure!.code, first.results.addSecure!.stderr).toBe(0);
    const replaced = normalizeFingerprint(await secure.changeCertificate());
    const sentSecure = secure.authorizations.length;

    const { results: r } = await inKeychainSession(
      [
        { name: 'otherUser', args: ['--controller', 'Bench', '--user', 'guest', 'outlets'] },
        { name: 'changed', args: ['--controller', 'Secure', 'outlets'] },
        { name: 'acceptNew', args: ['--controller', 'Secure', '--accept-fingerprint', replaced, 'outlets'] },
      ],
      first.home,
    );
    // Through the Core, which logs in as the saved user: the other user is said unused, never sent.
    expect(r.otherUser!.code, r.otherUser!.stderr).toBe(0);
    expect(r.otherUser!.stderr).toMatch(/logs in to it as admin: --user guest was not used/);
    expect(r.changed!.code, r.changed!.stderr).toBe(4);
    expect(r.changed!.stderr).toContain(
      `--accept-fingerprint ${replaced} and --password-stdin (or --reuse-secret`,
    );
    // The Core's refusal to send the saved secret there: not done, the message says why (exit 1).
    expect(r.acceptNew!.code, r.acceptNew!.stderr).toBe(1);
    expect(r.acceptNew!.stderr).toContain('you changed the certificate');
    // Nothing carried the saved password to the other user or to the new certificate.
    expect(home.authorizations.filter((a) => a.includes('username="guest"'))).toEqual([]);
    expect(secure.authorizations.length).toBe(sentSecure);

    const { results: ok } = await inKeychainSession(
      [
        {
          name: 'confirmed',
          args: [
            '--controller',
            'Secure',
            '--accept-fingerprint',
            replaced,
            '--reuse-secret',
            'outlets',
            '--json',
          ],
        },
        {
          name: 'typedAgain',
          args: [
            '--controller',
            'Secure',
            '--accept-fingerprint',
            replaced,
            '--password-stdin',
            'outlets',
            '--json',
          ],
          stdin: password,
        },
        {
          name: 'guestConfirmed',
          args: ['--controller', 'Bench', '--user', 'guest', '--reuse-secret', 'outlets'],
        },
      ],
      first.home,
    );
    expect(ok.confirmed!.code, ok.confirmed!.stderr).toBe(0);
    expect(ok.typedAgain!.code, ok.typedAgain!.stderr).toBe(0);
    expect(secure.authorizations.length).toBeGreaterThan(sentSecure);
    // --reuse-secret confirms the saved password for the saved place; it still goes to admin only.
    expect(ok.guestConfirmed!.code, ok.guestConfirmed!.stderr).toBe(0);
    expect(ok.guestConfirmed!.stderr).toMatch(/--user guest was not used/);
    expect(home.authorizations.filter((a) => a.includes('username="guest"'))).toEqual([]);
    for (const step of [...Object.values(r), ...Object.values(ok)])
      expect(step.stdout + step.stderr).not.toContain(password);
  });
});
