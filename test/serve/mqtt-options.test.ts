/** `plugboard serve --mqtt …`: the broker, its login from a private file or credential, trust, identity, prefix. */
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from '../../src-main/serve/options';

const dir = mkdtempSync(path.join(tmpdir(), 'plugboard-mqtt-options-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { PLUGBOARD_CONFIG_DIR: path.join(dir, 'config') };

function file(name: string, text: string, mode = 0o600): string {
  const where = path.join(dir, name);
  writeFileSync(where, text);
  chmodSync(where, mode);
  return where;
}

async function refused(args: string[], extraEnv: NodeJS.ProcessEnv = {}): Promise<string> {
  const error = await parseServeArgs(args, { ...env, ...extraEnv }).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(UsageError);
  return (error as UsageError).message;
}

describe('plugboard serve --mqtt', () => {
  it('is off without --mqtt, and its other flags need it', async () => {
    expect((await parseServeArgs([], env)).mqtt).toBeNull();
    expect(await refused(['--mqtt-prefix', 'lab'])).toBe(
      '--mqtt-prefix needs --mqtt mqtt[s]://HOST:PORT: give the broker too.',
    );
  });

  it('defaults: the port of the scheme, no login, the prefix plugboard, discovery on, an observer door', async () => {
    const config = (await parseServeArgs(['--mqtt', 'mqtts://broker.lab'], env)).mqtt!;
    expect(config).toEqual({
      url: 'mqtts://broker.lab:8883',
      credentials: null,
      credentialSource: null,
      ca: null,
      fingerprint: null,
      client: { name: 'mqtt', role: 'observer', written: null },
      prefix: 'plugboard',
      haDiscovery: true,
    });
    expect((await parseServeArgs(['--mqtt', 'mqtt://10.0.0.5'], env)).mqtt!.url).toBe('mqtt://10.0.0.5:1883');
  });

  it('never takes a password on the command line', async () => {
    expect(await refused(['--mqtt', 'mqtt://ha:secret@broker:1883'])).toMatch(
      /^--mqtt: put no user or password in the address .* --mqtt-credentials-file or the credential plugboard\.mqtt\.$/,
    );
    expect(await refused(['--mqtt', 'http://broker:1883'])).toMatch(
      /^--mqtt "http:\/\/broker:1883": give the broker as/,
    );
  });

  it('reads user:password from a private file, or the systemd credential plugboard.mqtt', async () => {
    const login = file('login', '# the broker\nplugboard:pa:ss word\n');
    const config = (await parseServeArgs(['--mqtt', 'mqtt://b:1883', '--mqtt-credentials-file', login], env))
      .mqtt!;
    expect(config.credentials).toEqual({ user: 'plugboard', password: 'pa:ss word' });
    expect(config.credentialSource).toBe(login);
    const open = file('open', 'plugboard:secret\n', 0o644);
    expect(await refused(['--mqtt', 'mqtt://b:1883', '--mqtt-credentials-file', open])).toBe(
      `--mqtt-credentials-file ${open} can be read by other users: make it private with \`chmod 600 ${open}\`.`,
    );
    const empty = file('empty', 'no colon here\n');
    expect(await refused(['--mqtt', 'mqtt://b:1883', '--mqtt-credentials-file', empty])).toMatch(
      /holds no "user:password" line/,
    );
    const credentials = path.join(dir, 'credentials');
    mkdirSync(credentials, { mode: 0o700 });
    writeFileSync(path.join(credentials, 'plugboard.mqtt'), 'svc:from-systemd\n', { mode: 0o600 });
    const fromSystemd = (
      await parseServeArgs(['--mqtt', 'mqtt://b:1883'], { ...env, CREDENTIALS_DIRECTORY: credentials })
    ).mqtt!;
    expect(fromSystemd.credentials).toEqual({ user: 'svc', password: 'from-systemd' });
  });

  it('trusts the broker by a CA file or a pinned fingerprint, only over TLS, not both', async () => {
    const ca = file('ca.pem', '-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n');
    expect((await parseServeArgs(['--mqtt', 'mqtts://b:8883', '--mqtt-ca', ca], env)).mqtt!.ca).toContain(
      'BEGIN',
    );
    const pin = 'ab'.repeat(32);
    expect(
      (await parseServeArgs(['--mqtt', 'mqtts://b:8883', '--mqtt-fingerprint', pin], env)).mqtt!.fingerprint,
    ).toBe(Array(32).fill('AB').join(':'));
    expect(await refused(['--mqtt', 'mqtt://b:1883', '--mqtt-ca', ca])).toMatch(
      /is plain MQTT, so there is no certificate/,
    );
    expect(await refused(['--mqtt', 'mqtts://b:8883', '--mqtt-ca', ca, '--mqtt-fingerprint', pin])).toMatch(
      /give one\.$/,
    );
    expect(await refused(['--mqtt', 'mqtts://b:8883', '--mqtt-fingerprint', 'AB:CD'])).toMatch(
      /is not a SHA-256 fingerprint/,
    );
    expect(await refused(['--mqtt', 'mqtts://b:8883', '--mqtt-ca', file('not-pem', 'hello')])).toMatch(
      /holds no PEM certificate/,
    );
  });

  it('takes the door’s identity as a token’s, a prefix without wildcards, and --no-ha-discovery', async () => {
    const config = (
      await parseServeArgs(
        [
          '--mqtt',
          'mqtt://b:1883',
          '--mqtt-client',
          'ha[operator tags=lab]',
          '--mqtt-prefix',
          'lab-a/power',
          '--no-ha-discovery',
        ],
        env,
      )
    ).mqtt!;
    expect(config.client).toEqual({
      name: 'ha',
      role: 'operator',
      written: { tags: ['lab'], controllers: [], outlets: [] },
    });
    expect(config.prefix).toBe('lab-a/power');
    expect(config.haDiscovery).toBe(false);
    expect(await refused(['--mqtt', 'mqtt://b:1883', '--mqtt-client', 'ha[boss]'])).toMatch(
      /start with its role: observer, operator, admin\.$/,
    );
    for (const prefix of ['lab/+', 'lab//x', '$SYS', 'lab/#'])
      expect(await refused(['--mqtt', 'mqtt://b:1883', '--mqtt-prefix', prefix])).toMatch(
        /without wildcards or empty levels/,
      );
  });
});
