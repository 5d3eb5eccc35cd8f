/**
 * Least privilege at the process level: the built `plugboard serve` with tokens of each role, reached
 * as a lab reaches it (the remote link `/api/v1/link`, the JSON API, pdudaemon, the owner's socket and
 * the CLI's `--service`). An observer reads but changes nothing; an operator switches and reserves but
 * cannot create users, touch SSH, move a controller or break someone else's reservation; a line without
 * a role is named at start and its refusals say what to write. Each refusal is one sentence from the
 * Core, the same through every door. Waits on lines, exits and events, never on elapsed time.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { Handlers } from '../../src-preload/contract';
import type { AppSnapshot, ContractError, ControllerState } from '../../src-preload/model';
import { connectRemoteCore, findRunningCore, type CoreLink } from '../../src-main/link';
import { cleanUpServe, runBuilt, scratchDir, servedBench, serveBuilt, type ServedBench } from './built-serve';
import { pduGet, pduTcp } from './pdudaemon-client';

const OBSERVER = 'grafana-secret-0123456789';
const OPERATOR = 'ci-secret-0123456789abcdef';
const NIGHTLY = 'nightly-secret-0123456789';
const LEGACY = 'prometheus-secret-0123456789';
const TOKENS = [
  `grafana[observer]:${OBSERVER}`,
  `ci[operator]:${OPERATOR}`,
  `nightly[operator]:${NIGHTLY}`,
  `prometheus:${LEGACY}`,
];
const HOUR = 3_600_000;

const links: CoreLink[] = [];
const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(links.splice(0).map((l) => l.close()));
  await Promise.all(servers.splice(0).map((s) => new Promise((resolve) => s.close(resolve))));
  await cleanUpServe();
});

async function remote(bench: ServedBench, token: string): Promise<Handlers> {
  const link = await connectRemoteCore(bench.api, { token });
  links.push(link);
  return link.handlersAs({ door: 'cli', who: 'whoever' });
}

/** Resolves once the service's Core has the saved controller online (from its snapshot or events). */
async function online(bench: ServedBench, token: string): Promise<void> {
  const link = await connectRemoteCore(bench.api, { token });
  links.push(link);
  const seen = new Promise<void>((resolve) =>
    link.subscribe((name, payload) => {
      if (name === 'state/changed' && (payload as ControllerState).status === 'online') resolve();
    }),
  );
  const snapshot: AppSnapshot = await link.handlersAs({ door: 'cli', who: 'x' })['app/snapshot']({});
  if (snapshot.states.some((s) => s.id === bench.controller.id && s.status === 'online')) return;
  await seen;
}

/** The contract error a call was refused with. */
async function refusal(call: Promise<unknown>): Promise<ContractError> {
  const error = (await call.then(
    () => {
      throw new Error('the call was not refused');
    },
    (e: unknown) => e,
  )) as { code: string; message: string; action?: string };
  return {
    code: error.code as ContractError['code'],
    message: error.message,
    ...(error.action ? { action: error.action } : {}),
  };
}

/** An address a stolen login would be sent to: counts every request it receives. */
async function attacker(): Promise<{ url: string; received: () => number }> {
  let received = 0;
  const server = createServer((_request, response) => {
    received++;
    response.writeHead(401, { 'WWW-Authenticate': 'Digest realm="DLI x", nonce="chosen-by-attacker"' }).end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, received: () => received };
}

async function postOutlet(
  bench: ServedBench,
  outlet: number,
  token: string,
): Promise<{ status: number; error: ContractError }> {
  const response = await fetch(`${bench.api}/api/v1/controllers/bench-a/outlets/${outlet}`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
    body: JSON.stringify({ action: 'off' }),
  });
  return { status: response.status, ...((await response.json()) as { error: ContractError }) };
}

const mallory = (controllerId: string) => ({
  controllerId,
  name: 'mallory',
  password: 'mallory-pw-1',
  isAdmin: true,
  isAllowed: true,
  outletAccess: [],
});

describe('roles on the built plugboard serve', () => {
  it(
    'an observer token reads through the link and /metrics but changes nothing',
    { timeout: 120_000 },
    async () => {
      const bench = await servedBench(TOKENS);
      await online(bench, OBSERVER);
      const grafana = await remote(bench, OBSERVER);
      const id = bench.controller.id;
      const evil = await attacker();

      expect(await grafana['controllers/list']({})).toHaveLength(1);
      const metrics = await fetch(`${bench.api}/metrics`, {
        headers: { Authorization: `Bearer ${OBSERVER}` },
      });
      expect(metrics.status).toBe(200);

      expect(
        await refusal(grafana['outlets/set']({ controllerId: id, outlets: [3], on: false })),
      ).toMatchObject({
        code: 'FORBIDDEN',
        message: 'The token "grafana" is an observer: it may read, not switch outlets.',
      });
      for (const call of [
        grafana['users/create'](mallory(id)),
        grafana['system/setSsh']({ controllerId: id, enabled: true }),
        grafana['controllers/update']({ id, url: evil.url, reuseSecret: true }),
        grafana['reservations/take']({
          target: { kind: 'controller', controllerId: id },
          reason: 'x',
          durationMs: HOUR,
        }),
      ])
        expect((await refusal(call)).code).toBe('FORBIDDEN');
      // An array where the call takes an object is refused as input, whoever asks.
      expect((await refusal(grafana['app/info']([] as never))).code).toBe('BAD_INPUT');

      expect(bench.emu.device.outlet(2).state).toBe(true);
      expect(bench.emu.device.users().map((u) => u.name)).not.toContain('mallory');
      expect(bench.emu.device.config().sshEnabled).toBe(false);
      expect(evil.received()).toBe(0);
      expect((await grafana['controllers/list']({}))[0]!.url).toBe(bench.emu.url);
    },
  );

  it(
    'an operator token switches and reserves, but cannot create users, touch SSH, move a controller or break another’s reservation',
    { timeout: 120_000 },
    async () => {
      const bench = await servedBench(TOKENS);
      await online(bench, OPERATOR);
      const ci = await remote(bench, OPERATOR);
      const nightly = await remote(bench, NIGHTLY);
      const id = bench.controller.id;
      const evil = await attacker();

      await ci['outlets/set']({ controllerId: id, outlets: [3], on: false });
      expect(bench.emu.device.outlet(2).state).toBe(false);
      const theirs = await nightly['reservations/take']({
        target: { kind: 'outlet', controllerId: id, outlet: 5 },
        reason: 'soak test',
        durationMs: HOUR,
      });
      expect(await refusal(ci['reservations/break']({ id: theirs.id, reason: 'mine now' }))).toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(
          /^The token "ci" is an operator: .*, not break the reservation nightly holds\.$/,
        ) as string,
      });
      const mine = await ci['reservations/take']({
        target: { kind: 'outlet', controllerId: id, outlet: 6 },
        reason: 'flashing',
        durationMs: HOUR,
      });
      await ci['reservations/break']({ id: mine.id, reason: 'done early' });
      expect((await ci['reservations/list']({})).map((r) => r.id)).toEqual([theirs.id]);

      for (const call of [
        ci['users/create'](mallory(id)),
        ci['system/setSsh']({ controllerId: id, enabled: true }),
        ci['controllers/update']({ id, url: evil.url, reuseSecret: true }),
        ci['controllers/remove']({ id }),
      ])
        expect(await refusal(call)).toMatchObject({
          code: 'FORBIDDEN',
          message: expect.stringContaining('"ci" is an operator') as string,
        });
      expect(bench.emu.device.users().map((u) => u.name)).not.toContain('mallory');
      expect(bench.emu.device.config().sshEnabled).toBe(false);
      expect(evil.received()).toBe(0);

      // The remote CLI works for an operator; an observer's switch exits 4 with the Core's sentence.
      const env = { PLUGBOARD_CONFIG_DIR: scratchDir(), PLUGBOARD_SERVICE_TOKEN: OPERATOR };
      const on = await runBuilt(['--service', bench.api, 'on', 'bench-a:3'], env).exit;
      expect(on.code, on.stderr).toBe(0);
      expect(bench.emu.device.outlet(2).state).toBe(true);
      const watcher = await runBuilt(['--service', bench.api, 'off', 'bench-a:3'], {
        ...env,
        PLUGBOARD_SERVICE_TOKEN: OBSERVER,
      }).exit;
      expect(watcher.code).toBe(4);
      expect(watcher.stderr).toContain(
        'The token "grafana" is an observer: it may read, not switch outlets.',
      );
      expect(bench.emu.device.outlet(2).state).toBe(true);
    },
  );

  it(
    'names a token line without a role at start, and its refused switch names the line to write',
    { timeout: 120_000 },
    async () => {
      const bench = await servedBench(TOKENS);
      expect(bench.service.stdout()).toContain(
        `token "prometheus": its line names no role, so it may only read now; to let it switch, write it as prometheus[operator]:<secret>`,
      );
      await online(bench, LEGACY);
      const metrics = await fetch(`${bench.api}/metrics`, { headers: { Authorization: `Bearer ${LEGACY}` } });
      expect(metrics.status).toBe(200);

      // The same words through the JSON API, the link and the remote CLI.
      const api = await postOutlet(bench, 3, LEGACY);
      expect(api.status).toBe(403);
      expect(api.error).toMatchObject({
        code: 'FORBIDDEN',
        message: 'The token "prometheus" is an observer: it may read, not switch outlets.',
        action: expect.stringContaining('write it as prometheus[operator]:<secret>') as string,
      });
      const prometheus = await remote(bench, LEGACY);
      const linked = await refusal(
        prometheus['outlets/set']({ controllerId: bench.controller.id, outlets: [3], on: false }),
      );
      expect(linked).toEqual({ code: api.error.code, message: api.error.message, action: api.error.action });
      const cli = await runBuilt(['--service', bench.api, 'off', 'bench-a:3'], {
        PLUGBOARD_CONFIG_DIR: scratchDir(),
        PLUGBOARD_SERVICE_TOKEN: LEGACY,
      }).exit;
      expect(cli.code).toBe(4);
      expect(cli.stderr).toContain(`${api.error.message} ${api.error.action}`);
      expect(bench.emu.device.outlet(2).state).toBe(true);
    },
  );

  it(
    'gives one refusal in the same words through every door: window, JSON API, link and pdudaemon',
    { timeout: 120_000 },
    async () => {
      const bench = await servedBench(TOKENS);
      // pdudaemon has no login: the service says at start who may switch through it.
      expect(bench.service.stdout()).toMatch(
        /^pdudaemon: its protocol has no login: every account on this machine may switch power through it \(as operators\)\.$/m,
      );
      await online(bench, OPERATOR);
      const id = bench.controller.id;
      const ci = await remote(bench, OPERATOR);
      await ci['reservations/take']({
        target: { kind: 'outlet', controllerId: id, outlet: 4 },
        reason: 'flashing',
        durationMs: HOUR,
      });

      const owner = await findRunningCore(bench.configDir);
      links.push(owner!);
      const window = await refusal(
        owner!
          .handlersAs({ door: 'window', who: 'tester' })
          ['outlets/set']({ controllerId: id, outlets: [4], on: false }),
      );
      expect(window.code).toBe('RESERVED');
      expect(window.message).toMatch(/reserved by ci/);
      const nightly = await remote(bench, NIGHTLY);
      expect(
        await refusal(nightly['outlets/set']({ controllerId: id, outlets: [4], on: false })),
      ).toMatchObject({
        code: 'RESERVED',
        message: window.message,
      });
      expect((await postOutlet(bench, 4, NIGHTLY)).error).toMatchObject({
        code: 'RESERVED',
        message: window.message,
      });
      expect((await pduGet(bench.pdudaemon, '/power/control/off?hostname=bench-a&port=4')).body).toBe(
        `${window.message}\n`,
      );
      expect(await pduTcp(bench.pdudaemon, 'bench-a 4 off')).toBe(`nack: ${window.message}\n`);
      expect(bench.emu.device.outlet(3).state).toBe(true);
    },
  );

  it(
    'refuses --allow 0.0.0.0/0 as a usage error (exit 2), naming what to give instead',
    { timeout: 60_000 },
    async () => {
      const scratch = scratchDir();
      const refused = await serveBuilt([
        '--allow',
        '0.0.0.0/0',
        '--listen',
        'pdudaemon=127.0.0.1:0',
        '--config-dir',
        scratch,
      ]).exit;
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain('would let every IPv4 address reach the listeners');
      expect(refused.stderr).toContain("give the lab's own networks instead");
    },
  );
});
