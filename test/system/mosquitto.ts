/**
 * A real Mosquitto broker for a test, on 127.0.0.1 with its own config in a scratch folder: a plain
 * listener and a TLS one (a test CA made with openssl, a server certificate for 127.0.0.1), no persistence
 * (a restart forgets every retained message, as a broker that lost its disk would). Given users, it asks
 * for a login (a password file) and applies an access list; without, anyone may connect and publish.
 * Mosquitto cannot be given port 0, so free ports are picked first. Run as root, Mosquitto switches to its
 * own user unless told `user root`, and then cannot read the test's files. A test process that ends (or a
 * hook that timed out) never leaves its broker running. Its own clients (mosquitto_sub, mosquitto_pub) are
 * the independent ones. Everything waits on output or exits, never on elapsed time.
 */
import { execFileSync, spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { endClients } from './mosquitto-clients';

export { publish, subscribe, type Message, type Subscriber } from './mosquitto-clients';

export interface Broker {
  dir: string;
  port: number;
  /** `mqtt://127.0.0.1:PORT`, the plain listener. */
  url: string;
  tlsPort: number;
  /** The test CA's certificate (PEM file). */
  caFile: string;
  /** Users and passwords in its password file. */
  users: Record<string, string>;
  /** Start (again) with the current config; resolves once it listens. */
  start(): Promise<void>;
  /** SIGTERM and wait for the exit (start() starts it again). */
  stop(): Promise<void>;
  /** Stop it for good, and remove its folder when it made one. */
  close(): Promise<void>;
  /** Rewrite the password file (SIGHUP makes a running broker read it again). */
  setUsers(users: Record<string, string>): void;
  reload(): void;
  log(): string;
  /** Resolves once the broker's log (from its last start) has a line matching. */
  logLine(pattern: RegExp): Promise<string>;
}

const brokers: Broker[] = [];

/** End every client and broker a test started (call from afterEach). */
export async function cleanUpBrokers(): Promise<void> {
  endClients();
  await Promise.all([...brokers].map((b) => b.close()));
}

/** A port nothing listens on now (the kernel's pick for port 0, released again). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function makeCertificates(dir: string): void {
  const run = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'ignore' });
  run(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '2',
    '-subj',
    '/CN=Plugboard test CA',
    '-keyout',
    'ca.key',
    '-out',
    'ca.crt',
  );
  run(
    'req',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-subj',
    '/CN=127.0.0.1',
    '-keyout',
    'server.key',
    '-out',
    'server.csr',
  );
  writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  run(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-days',
    '2',
    '-extfile',
    'san.ext',
    '-out',
    'server.crt',
  );
}

/** The access list docs/mqtt.md shows: the service's user, Home Assistant's, and a read-only viewer. */
export const ACL = `user plugboard
topic readwrite plugboard/#
topic readwrite homeassistant/#
topic read lab/units/#

user ha
topic read plugboard/#
topic write plugboard/+/outlet/+/set
topic read homeassistant/#

user viewer
topic read plugboard/#
topic read homeassistant/#

user unit-a
topic write lab/units/bench-a/#
`;

export interface BrokerOptions {
  /** Its folder (config, certificates, password file); absent: a temporary one, removed by close(). */
  dir?: string;
  /** Users and their passwords: a login is asked for and the access list applies. Absent: anonymous. */
  users?: Record<string, string>;
}

export async function startBroker(options: BrokerOptions = {}): Promise<Broker> {
  const own = options.dir === undefined;
  const dir = options.dir ?? mkdtempSync(path.join(tmpdir(), 'plugboard-mosquitto-'));
  const users = options.users ?? null;
  const port = await freePort();
  const tlsPort = await freePort();
  makeCertificates(dir);
  const passwd = path.join(dir, 'passwd');
  writeFileSync(path.join(dir, 'acl'), ACL);
  writeFileSync(
    path.join(dir, 'mosquitto.conf'),
    [
      ...(process.getuid?.() === 0 ? ['user root'] : []),
      'persistence false',
      'log_dest stderr',
      'log_type error',
      'log_type warning',
      'log_type notice',
      // "information" carries the line saying the broker runs.
      'log_type information',
      'log_type subscribe',
      'log_type unsubscribe',
      'per_listener_settings false',
      ...(users
        ? ['allow_anonymous false', `password_file ${passwd}`, `acl_file ${path.join(dir, 'acl')}`]
        : ['allow_anonymous true']),
      `listener ${port} 127.0.0.1`,
      `listener ${tlsPort} 127.0.0.1`,
      `cafile ${path.join(dir, 'ca.crt')}`,
      `certfile ${path.join(dir, 'server.crt')}`,
      `keyfile ${path.join(dir, 'server.key')}`,
      '',
    ].join('\n'),
  );
  let child: ChildProcessWithoutNullStreams | null = null;
  let output = '';
  const waiters = new Set<() => void>();
  const killOnExit = (): void => void child?.kill('SIGKILL');
  process.on('exit', killOnExit);
  const broker: Broker = {
    dir,
    port,
    url: `mqtt://127.0.0.1:${port}`,
    tlsPort,
    caFile: path.join(dir, 'ca.crt'),
    users: { ...users },
    setUsers(next) {
      broker.users = { ...next };
      writeFileSync(passwd, '');
      for (const [user, password] of Object.entries(next))
        execFileSync('mosquitto_passwd', ['-b', passwd, user, password], { stdio: 'ignore' });
    },
    reload() {
      child?.kill('SIGHUP');
    },
    log: () => output,
    logLine: (pattern) =>
      new Promise((resolve) => {
        const check = () => {
          const found = output.split('\n').find((line) => pattern.test(line));
          if (found === undefined) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      }),
    async start() {
      output = '';
      const started = spawn('mosquitto', ['-c', path.join(dir, 'mosquitto.conf')]);
      child = started;
      await new Promise<void>((resolve, reject) => {
        const check = (chunk: Buffer) => {
          output += chunk.toString();
          for (const wake of [...waiters]) wake();
          if (/mosquitto version \S+ running/.test(output.slice(output.lastIndexOf('starting')))) resolve();
        };
        started.stderr.on('data', check);
        started.stdout.on('data', check);
        started.once('exit', (code) => reject(new Error(`mosquitto exited (${code}):\n${output}`)));
      });
    },
    async stop() {
      const running = child;
      child = null;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
    async close() {
      const at = brokers.indexOf(broker);
      if (at >= 0) brokers.splice(at, 1);
      await broker.stop();
      process.off('exit', killOnExit);
      if (own) rmSync(dir, { recursive: true, force: true });
    },
  };
  if (users) broker.setUsers(users);
  brokers.push(broker);
  await broker.start();
  return broker;
}
