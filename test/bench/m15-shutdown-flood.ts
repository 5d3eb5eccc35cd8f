/**
 * 14. Shutdown under a flood (issue 21). The built `plugboard serve` (out/main/plugboard.js) with its
 * three listeners on 127.0.0.1, held by hostile clients from 127.0.0.2–5: 300 slow clients trickling an
 * HTTP header line every second on the pdudaemon port and 300 on the API, 2,000 idle connections to the
 * web window, and 200 pdudaemon TCP lines of 70 KB (answered `nack`, the clients never closing first).
 * Then SIGTERM: the time from the signal to the process's exit, against its grace period (10 s).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm } from 'node:fs/promises';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { buildOnce, repoRoot } from './build';
import { onCleanup } from './cleanup';
import { now } from './numbers';
import { row, type Row } from './results';

const TRIALS = 3;
const GRACE_S = 10;

/** `count` connections from `localAddress`, each connected (or refused) before the next batch. */
async function open(port: number, count: number, localAddress: string, first?: string | Buffer) {
  const sockets: Socket[] = [];
  for (let start = 0; start < count; start += 100) {
    await Promise.all(
      Array.from({ length: Math.min(100, count - start) }, () => {
        const socket = connect({ port, host: '127.0.0.1', localAddress });
        sockets.push(socket);
        socket.on('error', () => undefined);
        socket.on('data', () => undefined);
        return new Promise<void>((resolve) => {
          socket.once('connect', () => {
            if (first !== undefined) socket.write(first);
            resolve();
          });
          socket.once('close', () => resolve());
        });
      }),
    );
  }
  return sockets;
}

async function trial(): Promise<number> {
  const dir = await mkdtemp(join(tmpdir(), 'plugboard-bench-shutdown-'));
  const child = spawn(
    process.execPath,
    [
      join(repoRoot, 'out', 'main', 'plugboard.js'),
      'serve',
      '--listen',
      'web',
      '--listen',
      'api=127.0.0.1:0',
      '--listen',
      'pdudaemon=127.0.0.1:0',
      '--shutdown-grace',
      String(GRACE_S),
      '--config-dir',
      join(dir, 'config'),
    ],
    {
      env: { ...process.env, DBUS_SESSION_BUS_ADDRESS: '', DISPLAY: '' },
      stdio: ['ignore', 'pipe', 'ignore'],
    },
  );
  const sockets: Socket[] = [];
  let trickle: ReturnType<typeof setInterval> | undefined;
  const stop = onCleanup(async () => {
    clearInterval(trickle);
    for (const socket of sockets) socket.destroy();
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
  });
  try {
    const ports: Record<string, number> = {};
    for await (const line of createInterface({ input: child.stdout })) {
      const found = /^(web|api|pdudaemon): (?:http:\/\/)?127\.0\.0\.1:(\d+)/.exec(line);
      if (found) ports[found[1]!] = Number(found[2]);
      if (line === 'Ready.') break;
    }
    if (!ports.web || !ports.api || !ports.pdudaemon) throw new Error('plugboard serve did not start');
    const slowHead = 'GET /power/control/on?hostname=bench-a&port=1 HTTP/1.1\r\n';
    sockets.push(...(await open(ports.pdudaemon, 300, '127.0.0.2', slowHead)));
    sockets.push(...(await open(ports.api, 300, '127.0.0.3', 'GET /api/v1/controllers HTTP/1.1\r\n')));
    sockets.push(...(await open(ports.web, 2000, '127.0.0.4')));
    sockets.push(...(await open(ports.pdudaemon, 200, '127.0.0.5', Buffer.alloc(70_000, 'a'))));
    trickle = setInterval(() => {
      for (const socket of sockets) if (!socket.destroyed) socket.write('X-Slow: 1\r\n');
    }, 1000);
    const exited = once(child, 'exit');
    const t0 = now();
    child.kill('SIGTERM');
    await exited;
    return (now() - t0) / 1000;
  } finally {
    await stop();
  }
}

export async function measureShutdownFlood(): Promise<Row[]> {
  await buildOnce();
  const seconds: number[] = [];
  for (let i = 0; i < TRIALS; i++) seconds.push(await trial());
  const worst = Math.max(...seconds);
  return [
    row({
      measurement: 14,
      figure: 'SIGTERM to exit, listeners held by 2,800 hostile connections (worst of 3)',
      value: worst,
      unit: 's',
      target: `≤ ${GRACE_S} (the grace period)`,
      met: worst <= GRACE_S,
      note: `Trials: ${seconds.map((s) => s.toFixed(2)).join(', ')} s; idle and slow clients are closed at once, requests under way get the grace period.`,
    }),
  ];
}
