/** `plugboard serve`'s flags: what starts where, and a sentence for every mistake. */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { clientAllowed, hostAllowed, parseAllow } from '../../src-main/serve/network';
import { parseServeArgs, UsageError } from '../../src-main/serve/options';

const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-serve-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PLUGBOARD_CONFIG_DIR: path.join(dir, 'config') };

function tokenFile(text: string, mode = 0o600): string {
  const file = path.join(dir, `tokens-${Math.random().toString(36).slice(2)}`);
  writeFileSync(file, text);
  chmodSync(file, mode);
  return file;
}

async function refused(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
  const error = await parseServeArgs(args, { ...env, ...extraEnv }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('plugboard serve flags', () => {
  it("starts every listener on loopback by default, the pdudaemon one on its clients' port", async () => {
    const config = await parseServeArgs([], env);
    expect(config.listeners).toEqual([
      { name: 'web', host: '127.0.0.1', port: 0 },
      { name: 'api', host: '127.0.0.1', port: 16422 },
      { name: 'pdudaemon', host: '127.0.0.1', port: 16421 },
    ]);
    expect(config.configDir).toBe(path.join(dir, 'config'));
    expect(config.tls).toEqual({ kind: 'off' });
  });

  it('takes an address per listener, IPv6 in brackets', async () => {
    const config = await parseServeArgs(
      ['--listen', 'api=[::1]:9100', '--listen', 'pdudaemon=localhost:16421'],
      env,
    );
    expect(config.listeners).toEqual([
      { name: 'api', host: '::1', port: 9100 },
      { name: 'pdudaemon', host: '127.0.0.1', port: 16421 },
    ]);
  });

  it.each([
    [['--listen', 'ftp'], 'unknown listener "ftp"'],
    [['--listen', 'api=10.0.0.1'], 'ADDR:PORT'],
    [['--listen', 'api=lab-box:80'], 'IP address'],
    [['--listen', 'api=10.0.0.1:70000'], 'from 0 to 65535'],
    [['--listen', 'api=::1:80'], 'brackets'],
    [['--listen', 'api', '--listen', 'api=127.0.0.1:1'], 'given twice'],
    [['--allow', '10.0.0.0/33', '--listen', 'api=10.0.0.1:80'], 'from 0 to 32'],
    [['--allow', 'lab'], 'is not a network'],
    // Every address is no allowlist at all: refused, naming what to give instead.
    [['--allow', '0.0.0.0/0', '--listen', 'pdudaemon=0.0.0.0:16421'], "give the lab's own networks instead"],
    [['--allow', '192.168.10.0/24,::/0'], 'would let every IPv6 address reach the listeners'],
    [['--allow', '10.1.2.3/0'], 'would let every IPv4 address'],
    [['--host-name', 'bad name'], 'is not a DNS name'],
    [['--tls-cert', 'c.pem'], 'go together'],
    [['--bogus'], "Unknown option '--bogus'"],
  ])('refuses %j, saying what is wrong', async (args, words) => {
    expect(await refused(args)).toContain(words);
  });

  it('refuses a lab-network address without an allowlist or tokens, and accepts it with either', async () => {
    expect(await refused(['--listen', 'pdudaemon=0.0.0.0:16421'])).toContain('--allow');
    const allowed = await parseServeArgs(
      ['--listen', 'pdudaemon=0.0.0.0:16421', '--allow', '192.168.10.0/24'],
      env,
    );
    expect(allowed.allow?.given).toEqual(['192.168.10.0/24']);
    // --allow repeats; a named network gives pdudaemon's clients from there a name, a role and a scope.
    const named = await parseServeArgs(
      [
        '--listen',
        'pdudaemon=0.0.0.0:16421',
        '--allow',
        '192.168.10.0/24',
        '--allow',
        'ci=10.20.0.0/16[operator tags=farm,dut]',
      ],
      env,
    );
    expect(named.allow?.given).toEqual(['192.168.10.0/24', '10.20.0.0/16']);
    expect(named.allow?.clients.map((c) => [c.name, c.role, c.written?.tags])).toEqual([
      ['ci', 'operator', ['farm', 'dut']],
    ]);
    const file = tokenFile(`ci:${'x'.repeat(20)}\n`);
    const withTokens = await parseServeArgs(['--listen', 'api=0.0.0.0:16422', '--token-file', file], env);
    expect(withTokens.tokens.map((t) => t.name)).toEqual(['ci']);
    // The API on a lab network offers TLS unless told otherwise.
    expect(withTokens.tls).toEqual({ kind: 'self-signed' });
    const plain = await parseServeArgs(
      ['--listen', 'api=0.0.0.0:16422', '--token-file', file, '--no-tls'],
      env,
    );
    expect(plain.tls).toEqual({ kind: 'off' });
  });

  it('takes the shutdown grace period in seconds, 10 by default', async () => {
    expect((await parseServeArgs([], env)).shutdownGraceMs).toBe(10_000);
    expect((await parseServeArgs(['--shutdown-grace', '2'], env)).shutdownGraceMs).toBe(2_000);
    expect((await parseServeArgs(['--shutdown-grace', '0.5'], env)).shutdownGraceMs).toBe(500);
    for (const bad of ['soon', '1e3', '7200', ''])
      expect(await refused(['--shutdown-grace', bad])).toContain('give seconds from 0 to 3600');
  });

  it('keeps the web window on loopback', async () => {
    expect(await refused(['--listen', 'web=0.0.0.0:8080', '--allow', '10.0.0.0/8'])).toContain('ssh -L');
  });

  it('reads tokens from a private file or the systemd credential, refusing bad ones', async () => {
    expect(await refused(['--token-file', tokenFile(`ci:${'x'.repeat(20)}\n`, 0o644)])).toContain(
      'chmod 600',
    );
    expect(await refused(['--token-file', tokenFile('ci:short\n')])).toContain('shorter than 16');
    expect(await refused(['--token-file', tokenFile(`a b:${'x'.repeat(20)}\n`)])).toContain('line 1');
    expect(await refused(['--token-file', tokenFile('# nothing\n')])).toContain('holds no token');
    expect(await refused(['--token-file', path.join(dir, 'absent')])).toContain('ENOENT');

    const credentials = mkdtempSync(path.join(dir, 'creds-'));
    writeFileSync(
      path.join(credentials, 'plugboard.tokens'),
      `grafana:${'y'.repeat(24)}\nci:${'z'.repeat(24)}\n`,
    );
    const config = await parseServeArgs([], { ...env, CREDENTIALS_DIRECTORY: credentials });
    expect(config.tokens.map((t) => t.name)).toEqual(['grafana', 'ci']);
    expect(config.tokenSource).toBe(path.join(credentials, 'plugboard.tokens'));
  });
});

describe('who may connect', () => {
  it('lets loopback in always, other clients only from an allowed network', () => {
    const allow = parseAllow('192.168.10.0/24, 2001:db8::/32');
    if (typeof allow === 'string') throw new Error(allow);
    expect(clientAllowed('127.0.0.1', null)).toBe(true);
    expect(clientAllowed('::1', null)).toBe(true);
    expect(clientAllowed('192.168.10.7', null)).toBe(false);
    expect(clientAllowed('192.168.10.7', allow)).toBe(true);
    expect(clientAllowed('::ffff:192.168.10.7', allow)).toBe(true);
    expect(clientAllowed('192.168.11.7', allow)).toBe(false);
    expect(clientAllowed('2001:db8::5', allow)).toBe(true);
    expect(clientAllowed('2001:db9::5', allow)).toBe(false);
  });

  it('answers only a Host that is an address, localhost or a given name', () => {
    expect(hostAllowed('127.0.0.1:16422', [])).toBe(true);
    expect(hostAllowed('[::1]:16422', [])).toBe(true);
    expect(hostAllowed('LOCALHOST:16422', [])).toBe(true);
    expect(hostAllowed('pdu.lab:16422', ['pdu.lab'])).toBe(true);
    expect(hostAllowed('attacker.example:16422', ['pdu.lab'])).toBe(false);
    expect(hostAllowed(undefined, [])).toBe(false);
  });
});

describe("a service's name and address among the lab's services", () => {
  it('is named after the machine and has no address for clients while the API listens on loopback', async () => {
    const config = await parseServeArgs([], env);
    expect(config.name).toBe(hostname());
    expect(config.advertise).toBeNull();
  });

  it("takes --name and --advertise, else the API's URL on a lab network (its DNS name when given)", async () => {
    expect(
      await parseServeArgs(['--name', 'lab-a', '--advertise', 'https://lab-a.example.org:16422/'], env),
    ).toMatchObject({ name: 'lab-a', advertise: 'https://lab-a.example.org:16422' });
    const onNetwork = ['--listen', 'api=192.168.10.5:16422', '--allow', '192.168.10.0/24'];
    expect((await parseServeArgs(onNetwork, env)).advertise).toBe('https://192.168.10.5:16422');
    expect(
      (await parseServeArgs([...onNetwork, '--no-tls', '--host-name', 'pdu.lab.org'], env)).advertise,
    ).toBe('http://pdu.lab.org:16422');
  });

  it('refuses an address that is not an http(s) URL, and an empty name', async () => {
    expect(await refused(['--advertise', 'lab-a:16422'])).toMatch(/^--advertise "lab-a:16422": give the URL/);
    expect(await refused(['--name', ' '])).toMatch(/^--name " ": give a short name/);
  });
});
