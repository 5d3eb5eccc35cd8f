/**
 * A lab's services for the CLI's `--service` list: a real one (a Core over an emulated unit behind the
 * service's own `api` listener, whose remote link the CLI speaks), an address where nothing listens, and
 * a standby. The standby is thin: the remote link's protocol on loopback, answering reads from the same
 * Core (a standby reads the shared store) and refusing every other call with the STANDBY refusal as the
 * service contract words it, so each call it was sent is counted.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { WebSocketServer } from 'ws';
import type { CallName } from '../../src-preload/contract';
import type { ActivityEntry } from '../../src-preload/model';
import type { Core } from '../../src-main/core/index';
import { openSavedCore } from '../../src-main/core/saved-core';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';
import { LINK_PROTOCOL, REMOTE_LINK_PATH } from '../../src-main/link/wire';
import { startApiListener } from '../../src-main/serve/api';
import type { TlsMaterial } from '../../src-main/serve/listener';
import { parseTokens, type Token } from '../../src-main/serve/tokens';
import { MemorySecretStore } from '../../src-main/secrets';
import { apiContext } from '../serve/api-services';
import { cleanEnv } from './run-cli';

/** The reads the commands in these tests make; a standby answers them, and refuses anything else. */
const READS: ReadonlySet<CallName> = new Set([
  'app/info',
  'app/snapshot',
  'controllers/list',
  'settings/get',
  'reservations/list',
  'reservations/holder',
  'groups/list',
]);

export const SECRET = 'failover-secret-0123456789abcdef';

export type Cleanups = (() => Promise<void>)[];

export interface LabService {
  emu: RunningEmulator;
  core: Core;
  origin: string;
  entries: ActivityEntry[];
  /** The CLI's environment: an empty config folder of its own, no keychain, the service's token (unless not asked for). */
  env: NodeJS.ProcessEnv;
}

function scratch(cleanups: Cleanups): string {
  const dir = mkdtempSync(join(tmpdir(), 'plugboard-cli-lab-'));
  cleanups.push(async () => rmSync(dir, { recursive: true, force: true }));
  return dir;
}

export interface ServiceOptions {
  /** The operator token ci-runner's secret (SECRET unless given). */
  secret?: string;
  /** HTTPS with this certificate; plain HTTP without. */
  tls?: TlsMaterial | null;
  /** Whether the CLI's environment carries the token (PLUGBOARD_SERVICE_TOKEN); it does unless false. */
  tokenInEnv?: boolean;
}

/** The leading service: its Core switches the emulated "Bench A". */
export async function leadingService(cleanups: Cleanups, options: ServiceOptions = {}): Promise<LabService> {
  const { secret = SECRET, tls = null, tokenInEnv = true } = options;
  const emu = await startEmulator({ password: 'svc-only-913', initialStates: Array(8).fill(false) });
  cleanups.push(() => emu.close());
  const core = await openSavedCore({
    shell: 'test',
    version: '0',
    configDir: join(scratch(cleanups), 'config'),
    secrets: new MemorySecretStore(),
    log: () => undefined,
  });
  cleanups.push(() => core.dispose());
  await core.handlers['controllers/add']({
    url: emu.url,
    name: 'Bench A',
    auth: { kind: 'digest', user: 'admin', password: 'svc-only-913' },
  });
  const entries: ActivityEntry[] = [];
  core.subscribe((name, payload) => {
    if (name === 'activity/added') entries.push(payload as ActivityEntry);
  });
  const tokens = parseTokens(`ci-runner[operator]:${secret}\n`, 'tokens') as Token[];
  const listener = await startApiListener(apiContext(core, { tokens, tls }));
  cleanups.push(() => listener.close(1_000));
  const origin = /api: (https?:\/\/[^/]+)\//.exec(listener.lines[0]!)![1]!;
  const env = cleanEnv({
    PLUGBOARD_CONFIG_DIR: join(scratch(cleanups), 'client-config'),
    DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent',
    ...(tokenInEnv ? { PLUGBOARD_SERVICE_TOKEN: secret } : {}),
  });
  return { emu, core, origin, entries, env };
}

/** A loopback address where nothing listens (a port just let go): connecting is refused. */
export async function silentAddress(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

export interface Standby {
  origin: string;
  /** The calls it was sent, in order. */
  calls: CallName[];
  /** The calls it refused. */
  refused: CallName[];
}

/** The refusal's sentence, as a standby words it (the service contract's three forms). */
export function standbyMessage(self: string, leader: string | null, address: string | null): string {
  if (leader === null)
    return `This Plugboard service (${self}) does not lead the lab now (no leader holds the lease), so it switches nothing. Try again shortly.`;
  return `This Plugboard service (${self}) is a standby: ${leader} leads the lab.${address ? ` Send changes to ${address}.` : ''}`;
}

/**
 * A standby named `self` that names `leader` at `leaderAddress`, reading from `core`; with `drop`, a
 * service that dies with a change in hand instead (the link closes before any answer).
 */
export async function standbyService(
  cleanups: Cleanups,
  core: Core,
  self: string,
  leader: { name: string; address: string | null } | null,
  drop = false,
): Promise<Standby> {
  const calls: CallName[] = [];
  const refused: CallName[] = [];
  const server = createServer((_request, response) => response.writeHead(404).end());
  const sockets = new WebSocketServer({
    noServer: true,
    handleProtocols: (offered) => (offered.has(LINK_PROTOCOL) ? LINK_PROTOCOL : false),
  });
  server.on('upgrade', (request: IncomingMessage, socket, head) => {
    if (request.url !== REMOTE_LINK_PATH) return socket.destroy();
    sockets.handleUpgrade(request, socket, head, (ws) => {
      ws.on('message', (data) => {
        const call = JSON.parse(String(data)) as { id: number; name: CallName; input: unknown };
        calls.push(call.name);
        const reply = (result: unknown): void =>
          ws.send(JSON.stringify({ type: 'result', id: call.id, result }));
        if (READS.has(call.name)) {
          const handler = core.handlers[call.name] as (input: unknown) => Promise<unknown>;
          void handler(call.input).then(
            (value) => reply({ ok: true, value }),
            (error: { code?: string; message?: string }) =>
              reply({ ok: false, error: { code: error.code ?? 'INTERNAL', message: String(error.message) } }),
          );
          return;
        }
        if (drop) return ws.terminate();
        refused.push(call.name);
        reply({
          ok: false,
          error: {
            code: 'STANDBY',
            message: standbyMessage(self, leader?.name ?? null, leader?.address ?? null),
            detail: { service: self, leader: leader?.name ?? null, leaderAddress: leader?.address ?? null },
          },
        });
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  cleanups.push(async () => {
    for (const client of sockets.clients) client.terminate();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  });
  const { port } = server.address() as AddressInfo;
  return { origin: `http://127.0.0.1:${port}`, calls, refused };
}
