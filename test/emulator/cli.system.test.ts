import { type ChildProcess, spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseCli } from '../../src-main/emulator/cli';
import { curl, json, until } from './clients';

const ROOT = resolve(import.meta.dirname, '../..');
const LINE = /^listening on (https?):\/\/127\.0\.0\.1:(\d+)\/restapi\/$/;
const started: ChildProcess[] = [];

interface Run {
  child: ChildProcess;
  lines: string[];
  stderr: () => string;
  exited: Promise<number | null>;
}

/** `npm run --silent emulator -- …` in its own process group (as a terminal runs it). */
function run(args: string[], command: string[] = ['npm', 'run', '--silent', 'emulator', '--']): Run {
  const child = spawn(command[0]!, [...command.slice(1), ...args], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(child);
  const lines: string[] = [];
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
    const parts = stdout.split('\n');
    stdout = parts.pop() ?? '';
    lines.push(...parts);
  });
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((done) => child.once('exit', (code) => done(code)));
  return { child, lines, stderr: () => stderr, exited };
}

const signalGroup = (child: ChildProcess, signal: NodeJS.Signals): void => {
  if (child.pid !== undefined && child.exitCode === null) {
    try {
      process.kill(-child.pid, signal);
    } catch {
      // Already gone.
    }
  }
};

/** True once every process of the child's group (npm, sh, tsx, the emulator) has exited. */
function groupGone(child: ChildProcess): boolean {
  try {
    process.kill(-(child.pid ?? 0), 0);
    return false;
  } catch {
    return true;
  }
}

/** npm itself dies of the signal (like any npm script); what matters is that the emulator closes. */
async function stopsOn(target: Run, signal: NodeJS.Signals): Promise<void> {
  signalGroup(target.child, signal);
  const code = await target.exited;
  expect(code === 0 || code === null).toBe(true);
  await until(() => groupGone(target.child), Boolean, 20_000);
}

afterAll(() => {
  for (const child of started) signalGroup(child, 'SIGKILL');
});

async function listening(target: Run, count: number): Promise<RegExpExecArray[]> {
  await until(
    () => target.lines.length,
    (n) => n >= count || target.child.exitCode !== null,
    60_000,
  );
  if (target.lines.length < count) throw new Error(`emulator exited: ${target.stderr()}`);
  return target.lines.slice(0, count).map((line) => {
    const match = LINE.exec(line);
    if (!match) throw new Error(`Unexpected output line: ${JSON.stringify(line)}`);
    return match;
  });
}

/** A base port with `count` consecutive free ports after it. */
async function freePorts(count: number): Promise<number> {
  const free = (port: number) =>
    new Promise<boolean>((done) => {
      const server = createServer();
      server.once('error', () => done(false));
      server.listen(port, '127.0.0.1', () => server.close(() => done(true)));
    });
  for (let attempt = 0; attempt < 50; attempt++) {
    const base = 20_000 + Math.floor(Math.random() * 30_000);
    const results = await Promise.all(Array.from({ length: count }, (_, i) => free(base + i)));
    if (results.every(Boolean)) return base;
  }
  throw new Error('No free consecutive ports');
}

describe('npm run emulator', () => {
  it('prints exactly "listening on http://127.0.0.1:PORT/restapi/", serves, and closes cleanly on SIGTERM', async () => {
    const emulator = run(['--port', '0', '--cycle-delay', '0.3']);
    const [match] = await listening(emulator, 1);
    const url = `http://127.0.0.1:${match![2]}`;
    expect(emulator.lines).toEqual([`listening on ${url}/restapi/`]);
    expect((await curl(`${url}/restapi/relay/outlets/0/name/`)).status).toBe(200);
    await stopsOn(emulator, 'SIGTERM');
    expect((await curl(`${url}/restapi/`, { auth: 'none', maxTime: 5 })).exitCode).toBe(7);
  });

  it('--count 3 starts controllers on consecutive ports with distinct serials and names; SIGINT stops them all', async () => {
    const base = await freePorts(3);
    const emulator = run(['--port', String(base), '--count', '3', '--serial', 'LPC9000000009']);
    const matches = await listening(emulator, 3);
    expect(matches.map((m) => Number(m[2]))).toEqual([base, base + 1, base + 2]);
    const serials: unknown[] = [];
    const names: unknown[] = [];
    for (let i = 0; i < 3; i++) {
      serials.push(json(await curl(`http://127.0.0.1:${base + i}/restapi/config/serial/`)));
      names.push(json(await curl(`http://127.0.0.1:${base + i}/restapi/relay/name/`)));
    }
    expect(serials).toEqual(['LPC9000000009', 'LPC9000000010', 'LPC9000000011']);
    expect(new Set(names).size).toBe(3);
    await stopsOn(emulator, 'SIGINT');
  });

  it('--tls prints an https line and serves HTTPS; --no-meters drops meter/', async () => {
    const emulator = run([
      '--port',
      '0',
      '--tls',
      '--no-meters',
      '--outlets',
      '4',
      '--firmware',
      '1.10.11.0',
    ]);
    const [match] = await listening(emulator, 1);
    expect(match![1]).toBe('https');
    const url = `https://127.0.0.1:${match![2]}/restapi`;
    const states = await curl(`${url}/relay/outlets/all;/state/`, { extra: ['-k'] });
    expect(json(states)).toHaveLength(4);
    expect((await curl(`${url}/meter/values/`, { extra: ['-k'] })).status).toBe(404);
    expect(json(await curl(`${url}/config/version/`, { extra: ['-k'] }))).toBe('1.10.11.0');
    await stopsOn(emulator, 'SIGTERM');
  });

  // One process, as `npm run emulator` starts it (node --import tsx): tsx's own command would put a parent
  // in between that gives its child 30 ms to report a relayed signal before it kills it (exit 143), which
  // a busy machine misses.
  it('runs as one node process and exits with 0 on a SIGTERM to that process', async () => {
    const emulator = run(['--port', '0'], [process.execPath, '--import', 'tsx', 'src-main/emulator/main.ts']);
    await listening(emulator, 1);
    emulator.child.kill('SIGTERM');
    expect(await emulator.exited).toBe(0);
  });

  it('exits with 2 and a clear message for bad values', async () => {
    const bad = run(['--port', 'eighty']);
    expect(await bad.exited).toBe(2);
    expect(bad.stderr()).toMatch(/--port.*eighty.*whole number/s);
    expect(bad.lines).toEqual([]);
  });

  it('exits with 1 and says so when the port is taken', async () => {
    const holder = createServer();
    await new Promise<void>((done) => holder.listen(0, '127.0.0.1', done));
    const port = (holder.address() as { port: number }).port;
    try {
      const busy = run(['--port', String(port)]);
      expect(await busy.exited).toBe(1);
      expect(busy.stderr()).toContain(`cannot listen on 127.0.0.1:${port}: the address is in use`);
    } finally {
      holder.close();
    }
  });
});

describe('argument parsing', () => {
  it.each([
    [['--port', '70000'], /--port/],
    [['--outlets', '0'], /--outlets/],
    [['--outlets', '2.5'], /whole number/],
    [['--firmware', '1.x'], /dotted numbers/],
    [['--cycle-delay', '-1'], /--cycle-delay/],
    [['--latency', 'slow'], /--latency/],
    [['--count', '0'], /--count/],
    [['--serial', 'has space'], /--serial/],
    [['--bogus'], /unknown option/],
    [['extra'], /too many arguments|excess/i],
    [['--port', '65535', '--count', '2'], /past port 65535/],
    [['--mqtt-broker', 'http://127.0.0.1:1883'], /mqtt broker must be an mqtt:\/\/ or mqtts:\/\/ address/],
    [['--mqtt-broker', 'mqtt://127.0.0.1:1883', '--mqtt-topic', 'lab/#'], /mqtt topic must be a root/],
  ])('rejects %j with exit code 2', (args, message) => {
    const result = parseCli(args);
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.exitCode).toBe(2);
      expect(result.output).toMatch(message);
    }
  });

  it('fills in factory defaults', () => {
    const result = parseCli([]);
    expect(result.ok && result.controllers).toEqual([
      expect.objectContaining({
        port: 8080,
        host: '127.0.0.1',
        user: 'admin',
        password: '1234',
        outlets: 8,
        firmware: '1.12.14.0',
        meters: true,
        cycleDelay: 3,
        sequenceDelay: 0.5,
        rebootSeconds: 5,
        latency: 0,
        tls: false,
        qop: false,
        mdns: false,
      }),
    ]);
  });

  it('numbers names and serials with --count', () => {
    const result = parseCli(['--count', '2', '--serial', 'EPCR5100045', '--name', 'Bench']);
    expect(result.ok && result.controllers.map((c) => [c.port, c.serial, c.name])).toEqual([
      [8080, 'EPCR5100045', 'Bench 1'],
      [8081, 'EPCR5100046', 'Bench 2'],
    ]);
  });

  it('gives each unit of --count its own MQTT topic root, and obeys sets only with --mqtt-allow-write', () => {
    const base = ['--count', '2', '--mqtt-broker', 'mqtt://127.0.0.1:1883', '--mqtt-topic', 'lab/pdu/'];
    const result = parseCli(base);
    expect(result.ok && result.controllers.map((c) => c.mqtt)).toEqual([
      { broker: 'mqtt://127.0.0.1:1883', topic: 'lab/pdu/1', allowWrite: false },
      { broker: 'mqtt://127.0.0.1:1883', topic: 'lab/pdu/2', allowWrite: false },
    ]);
    const writing = parseCli(['--mqtt-broker', 'mqtt://127.0.0.1:1883', '--mqtt-allow-write']);
    expect(writing.ok && writing.controllers[0]?.mqtt).toEqual({
      broker: 'mqtt://127.0.0.1:1883',
      topic: 'dli',
      allowWrite: true,
    });
    expect(parseCli([]).ok && parseCli([])).toMatchObject({
      controllers: [expect.not.objectContaining({ mqtt: expect.anything() })],
    });
  });

  it('prints help with exit code 0', () => {
    const result = parseCli(['--help']);
    expect(result).toMatchObject({ ok: false, exitCode: 0 });
    if (!result.ok) expect(result.output).toContain('--cycle-delay');
  });
});
