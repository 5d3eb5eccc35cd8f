/**
 * A lab of several built `plugboard serve` on one PostgreSQL database and one emulated unit, `bench-a`
 * (standby.system.test.ts, the takeover bench): each service has a config folder of its own (another
 * machine), the same saved controller, its password as a systemd credential, and an operator's token.
 */
import { cpSync } from 'node:fs';
import { request } from 'node:http';
import path from 'node:path';
import { vi } from 'vitest';
import type { RunningEmulator } from '../../src-main/emulator';
import { savedBench, serveBuilt, writeTokens, type ServeProcess } from './built-serve';

const OPERATOR_SECRET = 'operator-secret-0123456789abcdef';

export interface LabService {
  name: string;
  process: ServeProcess;
  /** The api listener's origin. */
  api: string;
  pdudaemon: number;
}

export interface StandbyLab {
  emu: RunningEmulator;
  /** The operator's Authorization header. */
  auth: Record<string, string>;
  /** Start `plugboard serve --name <name>` on its own copy of the config folder; resolves once Ready. */
  serve(name: string): Promise<LabService>;
}

export async function labOnPostgres(databaseUrl: string): Promise<StandbyLab> {
  const bench = await savedBench();
  writeTokens(bench.credentials, [`ops[operator]:${OPERATOR_SECRET}`]);
  return {
    emu: bench.emu,
    auth: { Authorization: `Bearer ${OPERATOR_SECRET}` },
    async serve(name) {
      const configDir = path.join(bench.scratch, `config-${name}`);
      cpSync(bench.configDir, configDir, { recursive: true });
      const process = serveBuilt(
        [
          '--listen',
          'api=127.0.0.1:0',
          '--listen',
          'pdudaemon=127.0.0.1:0',
          '--config-dir',
          configDir,
          '--name',
          name,
          '--advertise',
          `http://${name}.test:16422`,
        ],
        { CREDENTIALS_DIRECTORY: bench.credentials, PLUGBOARD_DATABASE_URL: databaseUrl },
      );
      const api = (await process.line(/^api: (http:\/\/127\.0\.0\.1:\d+)\//))[1]!;
      const pdudaemon = Number((await process.line(/^pdudaemon: 127\.0\.0\.1:(\d+) /))[1]);
      await process.line(/^Ready\.$/);
      return { name, process, api, pdudaemon };
    },
  };
}

/**
 * One HTTP request on its own connection; `written` is told once its bytes are all handed to the
 * kernel (a stopped process's socket accepts them: the request waits there for it to run).
 */
function send(
  url: string,
  method: string,
  headers: Record<string, string>,
  body?: string,
  written: () => void = () => undefined,
): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method, headers, agent: false }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
      res.on('error', reject);
    });
    req.on('error', reject);
    req.end(body, written);
  });
}

/** The JSON API's `/api/v1/status`. */
export async function status(api: string): Promise<Record<string, unknown>> {
  const answer = await send(`${api}/api/v1/status`, 'GET', { Authorization: `Bearer ${OPERATOR_SECRET}` });
  return JSON.parse(answer.text) as Record<string, unknown>;
}

/** Switch bench-a's outlet 1 through the JSON API as the operator. */
export async function switchOutlet(
  api: string,
  action: 'on' | 'off',
  written?: () => void,
): Promise<{ status: number; body: { error: { code: string; message: string } } & Record<string, unknown> }> {
  const answer = await send(
    `${api}/api/v1/controllers/bench-a/outlets/1`,
    'POST',
    { Authorization: `Bearer ${OPERATOR_SECRET}`, 'Content-Type': 'application/json' },
    JSON.stringify({ action }),
    written,
  );
  return { status: answer.status, body: JSON.parse(answer.text) as never };
}

/** Switch bench-a's outlet 1 through pdudaemon's HTTP protocol. */
export async function pduSwitch(
  port: number,
  action: 'on' | 'off',
  written?: () => void,
): Promise<{ status: number; body: string }> {
  const url = `http://127.0.0.1:${port}/power/control/${action}?hostname=bench-a&port=1`;
  const answer = await send(url, 'GET', {}, undefined, written);
  return { status: answer.status, body: answer.text };
}

/** The requests that change something the unit received since `since` (epoch ms): method and path. */
export function changesSince(emu: RunningEmulator, since: number): string[] {
  return emu.device.stats.log
    .filter((e) => e.time >= since && e.method !== 'GET')
    .map((e) => `${e.method} ${e.path}`);
}

/** Wait until the service has printed `count` lines matching `pattern` on stderr (its log). */
export async function waitForLines(process: ServeProcess, pattern: RegExp, count: number): Promise<void> {
  await vi.waitFor(
    () => {
      const seen = process
        .stderr()
        .split('\n')
        .filter((line) => pattern.test(line)).length;
      if (seen < count)
        throw new Error(`${seen} of ${count} lines matching ${pattern}:\n${process.stderr()}`);
    },
    { timeout: 90_000, interval: 50 },
  );
}

/**
 * `work`, or a failure naming `what` with what the services printed, if it has not settled after a
 * backstop of 45 s (well beyond any wait here: a takeover takes about 7 s).
 */
export async function step<T>(what: string, work: Promise<T>, ...services: LabService[]): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const backstop = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const printed = services.map((s) => `--- ${s.name}:\n${s.process.stdout()}${s.process.stderr()}`);
      reject(new Error(`still waiting for ${what}\n${printed.join('\n')}`));
    }, 45_000);
  });
  try {
    return await Promise.race([work, backstop]);
  } finally {
    clearTimeout(timer);
  }
}
