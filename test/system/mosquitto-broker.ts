/**
 * A real Mosquitto broker for one test file: Debian's `mosquitto`, started on 127.0.0.1 with its own
 * config in a temporary folder (anonymous clients, no persistence, log to stderr). Mosquitto cannot be
 * given port 0, so a free port is picked first. Started as root, it would switch to its own user and
 * then could not read the test's folder: the config says `user root` then.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Broker {
  /** `mqtt://127.0.0.1:PORT` */
  url: string;
  port: number;
  /** What the broker wrote so far (its log). */
  output(): string;
  stop(): Promise<void>;
}

/** A port nothing listens on now (the kernel's pick for port 0, released again). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === 'string') throw new Error('no port was given');
  return address.port;
}

export async function startBroker(): Promise<Broker> {
  const dir = await mkdtemp(join(tmpdir(), 'plugboard-mosquitto-'));
  const port = await freePort();
  const config = join(dir, 'mosquitto.conf');
  await writeFile(
    config,
    [
      ...(process.getuid?.() === 0 ? ['user root'] : []),
      `listener ${port} 127.0.0.1`,
      'allow_anonymous true',
      'persistence false',
      'log_dest stderr',
      // "information" carries the line saying the broker runs.
      'log_type error',
      'log_type warning',
      'log_type notice',
      'log_type information',
      '',
    ].join('\n'),
  );
  const child: ChildProcess = spawn('mosquitto', ['-c', config], { stdio: ['ignore', 'ignore', 'pipe'] });
  // A test process that ends (or a hook that timed out) never leaves its broker running.
  const killOnExit = (): void => void child.kill('SIGKILL');
  process.once('exit', killOnExit);
  let output = '';
  await new Promise<void>((resolve, reject) => {
    const onData = (chunk: Buffer): void => {
      output += chunk.toString('utf8');
      // Mosquitto says it is running once its listener is open.
      if (/mosquitto version \S+ running/.test(output)) resolve();
    };
    child.stderr!.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`mosquitto exited with ${code}: ${output}`)));
  });
  return {
    url: `mqtt://127.0.0.1:${port}`,
    port,
    output: () => output,
    async stop() {
      process.off('exit', killOnExit);
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await exited;
      }
      await rm(dir, { recursive: true, force: true });
    },
  };
}
