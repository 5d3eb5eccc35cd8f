/**
 * `plugboard accounts …` on the config folder's Core and through a running service (--service): the
 * password read from standard input only, the scope from --tags/--controllers/--outlets, and the
 * account then signs in (and no longer does once disabled, revoked or removed).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { AccountSummary } from '../../src-preload/model';
import { openConfStore } from '../../src-main/core/store';
import { MemorySecretStore } from '../../src-main/secrets';
import { parseTokens, type Token } from '../../src-main/serve/tokens';
import { addController, emulator, newCore } from '../core/harness';
import { ApiServices } from '../serve/api-services';
import { cleanEnv, cli } from './run-cli';

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-cli-accounts-'));
const PASSWORD = 'a long enough password';
const SECRET = 'admin-secret-0123456789abcdef';
const services = new ApiServices();
afterEach(() => services.close());
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('plugboard accounts', () => {
  it('adds, lists, sets a password, disables, enables, revokes and removes on the config folder', async () => {
    const dir = path.join(scratch, 'folder');
    const env = cleanEnv({ PLUGBOARD_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    const run = (args: string[], stdin?: string) => cli(args, { env, ...(stdin ? { stdin } : {}) });

    const empty = await run(['accounts', 'list']);
    expect(empty.stdout).toContain(
      'No accounts. Add the first administrator with: plugboard accounts add NAME --role admin --password-stdin',
    );
    const added = await run(
      [
        'accounts',
        'add',
        'Ada',
        '--role',
        'operator',
        '--display',
        'Ada L.',
        '--tags',
        'rack-7,rack-8',
        '--password-stdin',
      ],
      `${PASSWORD}\n`,
    );
    expect(added.code).toBe(0);
    expect(added.stdout.trim()).toBe('Added ada (operator, tag rack-7, tag rack-8).');
    const bare = await run(['accounts', 'add', 'ci', '--role', 'observer']);
    expect(bare.stdout).toMatch(/^Added ci \(observer, everything\) without a password/);
    const listed = (await run(['accounts', 'list', '--json'])).json<AccountSummary[]>();
    expect(listed).toMatchObject([
      { name: 'ada', displayName: 'Ada L.', role: 'operator', hasPassword: true, disabled: false },
      { name: 'ci', hasPassword: false },
    ]);
    expect(listed[0]!.scope).toEqual({
      kind: 'some',
      tags: ['rack-7', 'rack-8'],
      controllers: [],
      outlets: [],
    });
    expect((await run(['accounts', 'list'])).stdout).toMatch(
      /ada\s+Ada L\.\s+operator\s+tag rack-7, tag rack-8\s+enabled\s+0/,
    );
    const passwordless = await run(['accounts', 'passwd', 'ada']);
    expect(passwordless.code).not.toBe(0);
    expect(passwordless.stderr).toContain('accounts passwd needs --password-stdin');
    expect((await run(['accounts', 'add', 'ada', '--role', 'admin'])).stderr).toContain(
      'An account named "ada" already exists.',
    );

    // The account signs in with what was piped in, and the commands end its sessions.
    const lab = await services.records(dir);
    const core = newCore({
      store: openConfStore(dir),
      dataDir: dir,
      records: lab,
      secrets: new MemorySecretStore(),
    }).core;
    const first = await core.accounts!.signIn('ada', PASSWORD, '127.0.0.1');
    expect((await run(['accounts', 'revoke', 'ada'])).stdout.trim()).toBe('Ended 1 session of ada.');
    expect(await core.accounts!.session(first.token)).toBeNull();
    expect(
      (await run(['accounts', 'passwd', 'ada', '--password-stdin'], 'a brand new password\n')).code,
    ).toBe(0);
    await expect(core.accounts!.signIn('ada', PASSWORD, '127.0.0.1')).rejects.toThrow(
      'The name or the password is wrong.',
    );
    await core.accounts!.signIn('ada', 'a brand new password', '127.0.0.1');
    expect((await run(['accounts', 'disable', 'ada'])).stdout.trim()).toBe('Disabled ada.');
    await expect(core.accounts!.signIn('ada', 'a brand new password', '127.0.0.1')).rejects.toThrow(
      'is disabled',
    );
    expect((await run(['accounts', 'enable', 'ada'])).stdout.trim()).toBe('Enabled ada.');
    expect((await run(['accounts', 'remove', 'ada'])).stdout.trim()).toBe('Removed ada.');
    expect((await run(['accounts', 'list', '--json'])).json<AccountSummary[]>().map((a) => a.name)).toEqual([
      'ci',
    ]);
    const gone = await run(['accounts', 'revoke', 'ada']);
    expect(gone.stderr).toContain('No account is named "ada".');
  });

  it('changes an account in place with set: role, display name and scope, what is not given stays', async () => {
    const dir = path.join(scratch, 'set');
    const env = cleanEnv({ PLUGBOARD_CONFIG_DIR: dir, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });
    const run = (args: string[]) => cli(args, { env });
    expect((await run(['accounts', 'add', 'root', '--role', 'admin'])).code).toBe(0);
    expect((await run(['accounts', 'add', 'bob', '--role', 'observer', '--tags', 'rack-7'])).code).toBe(0);

    const promoted = await run(['accounts', 'set', 'Bob', '--role', 'operator', '--display', 'Bob B.']);
    expect(promoted.stdout.trim()).toBe('bob is now an operator of tag rack-7, shown as "Bob B.".');
    const widened = await run(['accounts', 'set', 'bob', '--everywhere', '--json']);
    expect(widened.json<AccountSummary>()).toMatchObject({
      name: 'bob',
      displayName: 'Bob B.',
      role: 'operator',
      scope: { kind: 'all' },
    });
    const narrowed = await run(['accounts', 'set', 'bob', '--tags', 'rack-8,rack-9']);
    expect(narrowed.stdout.trim()).toBe(
      'bob is now an operator of tag rack-8, tag rack-9, shown as "Bob B.".',
    );

    const nothing = await run(['accounts', 'set', 'bob']);
    expect(nothing.code).not.toBe(0);
    expect(nothing.stderr).toContain('Say what to change: --role, --display, or the scope');
    const both = await run(['accounts', 'set', 'bob', '--everywhere', '--tags', 'rack-7']);
    expect(both.stderr).toContain(
      'Give either --everywhere or --tags, --controllers and --outlets, not both.',
    );
    const last = await run(['accounts', 'set', 'root', '--role', 'operator']);
    expect(last.code).not.toBe(0);
    expect(last.stderr).toContain(
      'root is the last administrator of everything: a lab keeps one, so it cannot be made an operator.',
    );
    expect((await run(['accounts', 'list', '--json'])).json<AccountSummary[]>()).toMatchObject([
      { name: 'bob', role: 'operator', scope: { kind: 'some', tags: ['rack-8', 'rack-9'] } },
      { name: 'root', role: 'admin', scope: { kind: 'all' } },
    ]);
  });

  it('works through a running service with an admin token, names controllers and outlets by name, and an operator is refused', async () => {
    const dir = path.join(scratch, 'service');
    const emu = await emulator();
    const h = newCore({
      store: openConfStore(dir),
      dataDir: dir,
      records: await services.records(dir),
      secrets: new MemorySecretStore(),
    });
    const { id } = await addController(h, emu, { name: 'Bench A' });
    const tokens = parseTokens(`root[admin]:${SECRET}\nops[operator]:${SECRET}-ops\n`, 'tokens') as Token[];
    const { origin } = await services.listen(h.core, { tokens });
    const env = (token: string) =>
      cleanEnv({
        PLUGBOARD_CONFIG_DIR: path.join(scratch, 'client'),
        PLUGBOARD_SERVICE_TOKEN: token,
        DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
      });
    const added = await cli(
      [
        '--service',
        origin,
        'accounts',
        'add',
        'bob',
        '--role',
        'operator',
        '--controllers',
        'bench a',
        '--outlets',
        'Bench A:3',
        '--password-stdin',
        '--json',
      ],
      { env: env(SECRET), stdin: `${PASSWORD}\n` },
    );
    expect(added.code).toBe(0);
    expect(added.json<AccountSummary>().scope).toEqual({
      kind: 'some',
      tags: [],
      controllers: [id],
      outlets: [{ controllerId: id, outlet: 3 }],
    });
    expect((await h.core.accounts!.signIn('bob', PASSWORD, '127.0.0.1')).account.name).toBe('bob');
    const refused = await cli(['--service', origin, 'accounts', 'list'], { env: env(`${SECRET}-ops`) });
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain(
      'The token "ops" is an operator: it may read, switch and reserve outlets, and run groups and sequences, not see the accounts.',
    );
  });
});
