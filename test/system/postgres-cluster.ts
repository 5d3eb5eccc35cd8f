/**
 * A PostgreSQL of the test run's own: Debian's postgresql (15) started as a cluster in a temporary
 * folder with initdb and pg_ctl, listening on 127.0.0.1 at a free port and on a socket in that folder,
 * with a password (scram-sha-256) so a connection string is as a lab gives it. initdb refuses root, and
 * CI runs as root: there the cluster runs as the `postgres` user (runuser). Tests each take a database
 * of their own (`freshDatabase`), so files running side by side share the server, never their data.
 */
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chownSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The run's PostgreSQL (a superuser's connection string), or why there is none. */
    postgres: { url: string } | { problem: string };
  }
}

export interface PostgresCluster {
  /** postgresql://plugboard:…@127.0.0.1:<port>/postgres: a superuser of this cluster. */
  url: string;
  port: number;
  folder: string;
  stop(): Promise<void>;
  /** Stop the server at once (pg_ctl -m immediate), keeping its data: the database goes away. */
  halt(): Promise<void>;
  /** Start it again on the same port, after `halt`. */
  resume(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Run a PostgreSQL program as the cluster's owner: `postgres` when we are root, else ourselves. */
function asOwner(program: string, args: string[]) {
  const path = join(POSTGRES_BIN, program);
  return userInfo().uid === 0 ? run('runuser', ['-u', 'postgres', '--', path, ...args]) : run(path, args);
}

/** Start a cluster in a new temporary folder. */
export async function startPostgresCluster(): Promise<PostgresCluster> {
  if (!existsSync(join(POSTGRES_BIN, 'initdb')))
    throw new Error(`No ${POSTGRES_BIN}/initdb: apt-get install -y postgresql (Debian's PostgreSQL 15).`);
  const folder = mkdtempSync(join(tmpdir(), 'plugboard-postgres-'));
  const password = randomBytes(12).toString('hex');
  const data = join(folder, 'data');
  const passwordFile = join(folder, 'password');
  writeFileSync(passwordFile, `${password}\n`, { mode: 0o600 });
  if (userInfo().uid === 0) {
    const { stdout } = await run('id', ['-u', 'postgres']);
    const { stdout: group } = await run('id', ['-g', 'postgres']);
    chownSync(folder, Number(stdout.trim()), Number(group.trim()));
    chownSync(passwordFile, Number(stdout.trim()), Number(group.trim()));
  }
  const stop = async () => {
    await asOwner('pg_ctl', ['-D', data, '-m', 'immediate', 'stop']).catch(() => undefined);
    rmSync(folder, { recursive: true, force: true });
  };
  try {
    await asOwner('initdb', [
      '-D',
      data,
      '-U',
      'plugboard',
      `--pwfile=${passwordFile}`,
      '--auth=scram-sha-256',
      '--no-sync',
      '-E',
      'UTF8',
      '--locale=C',
    ]);
    for (let attempt = 1; ; attempt++) {
      const port = await freePort();
      // Loopback and a socket in the folder only; no fsync: the cluster lives as long as the run.
      const settings = `-c listen_addresses=127.0.0.1 -p ${port} -k ${folder} -c fsync=off -c full_page_writes=off`;
      try {
        const start = () =>
          asOwner('pg_ctl', [
            '-D',
            data,
            '-l',
            join(folder, 'log'),
            '-o',
            settings,
            '-w',
            '-t',
            '60',
            'start',
          ]);
        await start();
        return {
          url: `postgresql://plugboard:${password}@127.0.0.1:${port}/postgres`,
          port,
          folder,
          stop,
          halt: async () => void (await asOwner('pg_ctl', ['-D', data, '-m', 'immediate', 'stop'])),
          resume: async () => void (await start()),
        };
      } catch (error) {
        // Someone took the port between our probe and the server's bind: another one.
        if (attempt >= 3) throw error;
      }
    }
  } catch (error) {
    await stop();
    throw error;
  }
}

/** A new, empty database on the cluster at `url`; answers its connection string. */
export async function freshDatabase(
  url: string,
  name = `t_${randomBytes(6).toString('hex')}`,
): Promise<string> {
  const pg = await import('pg');
  const client = new pg.default.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  const next = new URL(url);
  next.pathname = `/${name}`;
  return next.toString();
}
