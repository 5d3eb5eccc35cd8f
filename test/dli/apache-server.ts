/**
 * A real Apache httpd (Debian's apache2, mod_auth_digest) on 127.0.0.1, started by the test with its own
 * config in a temp dir. It serves static JSON under /restapi/ so the client's reads parse, behind
 * digest auth that we did not write — the interop proof for RFC 2617 (qop=auth).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const MODULES = '/usr/lib/apache2/modules';

export interface ApacheOptions {
  realm: string;
  user: string;
  password: string;
  /** Seconds a nonce stays valid (Apache's default is 300). */
  nonceLifetime?: number;
  /** JSON documents by API path, e.g. `{ 'config/version/': '1.12.14.0' }`. */
  files: Record<string, unknown>;
}

export interface RunningApache {
  url: string;
  /** Access log lines as `METHOD URI STATUS`. */
  log(): Promise<string[]>;
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

export async function startApache(options: ApacheOptions): Promise<RunningApache> {
  const dir = await mkdtemp(join(tmpdir(), 'plugboard-apache-'));
  // Apache's workers run as www-data: they must be able to read the documents.
  await chmod(dir, 0o755);
  for (const [path, value] of Object.entries(options.files)) {
    const folder = join(dir, 'htdocs', 'restapi', path);
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, 'index.json'), JSON.stringify(value));
  }
  const ha1 = createHash('md5').update(`${options.user}:${options.realm}:${options.password}`).digest('hex');
  await writeFile(join(dir, 'digest.pw'), `${options.user}:${options.realm}:${ha1}\n`);
  const port = await freePort();
  const modules = [
    'mpm_event',
    'authn_core',
    'authn_file',
    'authz_core',
    'authz_user',
    'auth_digest',
    'mime',
    'dir',
  ];
  const conf = [
    `ServerRoot ${dir}`,
    ...modules.map((m) => `LoadModule ${m}_module ${MODULES}/mod_${m}.so`),
    `Listen 127.0.0.1:${port}`,
    'ServerName 127.0.0.1',
    'User www-data',
    'Group www-data',
    `PidFile ${dir}/httpd.pid`,
    `ErrorLog ${dir}/error.log`,
    `CustomLog ${dir}/access.log "%m %r %>s"`,
    `DocumentRoot ${dir}/htdocs`,
    'DirectoryIndex index.json',
    'TypesConfig /dev/null',
    'AddType application/json .json',
    '<Location /restapi/>',
    '  AuthType Digest',
    `  AuthName "${options.realm}"`,
    '  AuthDigestProvider file',
    `  AuthUserFile ${dir}/digest.pw`,
    // Apache 2.4.71 offers only qop=auth (RFC 2069 mode was removed); the RFC 2069 form is covered by the
    // emulator, which answers like a real unit. With the nonce-count check on, Apache refuses a nonce
    // count that does not increase (a replay, or two requests sharing one count).
    '  AuthDigestQop auth',
    '  AuthDigestNcCheck On',
    `  AuthDigestNonceLifetime ${options.nonceLifetime ?? 300}`,
    '  Require valid-user',
    '</Location>',
  ].join('\n');
  await writeFile(join(dir, 'httpd.conf'), conf);
  const child: ChildProcess = spawn('apache2', ['-f', join(dir, 'httpd.conf'), '-DFOREGROUND'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  try {
    await waitForPort(url, child, () => stderr);
  } catch (error) {
    if (child.exitCode === null) child.kill('SIGTERM');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    url,
    async log() {
      const text = await readFile(join(dir, 'access.log'), 'utf8').catch(() => '');
      // "%m %r %>s" → "GET GET /restapi/x/ HTTP/1.1 200": keep method, path, status.
      return text
        .split('\n')
        .filter((line) => line.includes(' /restapi/'))
        .map((line) => {
          const parts = line.split(' ');
          return `${parts[0]} ${parts[2]} ${parts[parts.length - 1]}`;
        });
    },
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function waitForPort(url: string, child: ChildProcess, stderr: () => string): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    if (child.exitCode !== null) throw new Error(`apache2 exited: ${stderr()}`);
    try {
      await fetch(`${url}/`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`apache2 did not start: ${stderr()}`);
}
