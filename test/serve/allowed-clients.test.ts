/**
 * pdudaemon's `--allow` networks as named clients: `ci=127.0.0.2[operator tags=farm]` makes every
 * request from there act as `ci` with that role and scope (the Core's scope check and sentence, the
 * activity log naming it), while a plain network, and loopback, keep switching as operators named by
 * their addresses. Against a real Core driving an emulator on 127.0.0.1.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityEntry, ControllerSummary } from '../../src-preload/contract';
import { pdudaemonCaller, pdudaemonLines, resolveAllowScopes } from '../../src-main/serve/allowed-clients';
import { parseAllow, type ClientNetworks } from '../../src-main/serve/network';
import { listenPdudaemon, type RunningPdudaemon } from '../../src-main/serve/pdudaemon-server';
import { addController, cleanUp, emulator, newCore } from '../core/harness';
import { pduTcp } from './pdudaemon-client';

const listeners: RunningPdudaemon[] = [];
afterEach(async () => {
  await Promise.all(listeners.splice(0).map((l) => l.close()));
  await cleanUp();
});

function allowed(text: string, controllers: ControllerSummary[] = []): ClientNetworks {
  const parsed = parseAllow(text);
  if (typeof parsed === 'string') throw new Error(parsed);
  const resolved = resolveAllowScopes(parsed, controllers);
  if (typeof resolved === 'string') throw new Error(resolved);
  return resolved;
}

describe('--allow with names', () => {
  it('reads plain and named networks; a scope keeps its commas inside the brackets', () => {
    const allow = allowed(
      '192.168.10.0/24,ci=10.20.0.0/16[operator tags=farm,rack-7],lab=10.20.5.0/24[observer]',
    );
    expect(allow.given).toEqual(['192.168.10.0/24', '10.20.0.0/16', '10.20.5.0/24']);
    expect(allow.clients.map((c) => [c.name, c.network, c.role, c.scope])).toEqual([
      [
        'ci',
        '10.20.0.0/16',
        'operator',
        { kind: 'some', tags: ['farm', 'rack-7'], controllers: [], outlets: [] },
      ],
      ['lab', '10.20.5.0/24', 'observer', { kind: 'all' }],
    ]);
    // The most specific network names the client; a plain network's client is an operator by its address.
    expect(pdudaemonCaller('pdudaemon-tcp', '10.20.5.9', allow)).toMatchObject({
      who: 'lab',
      role: 'observer',
    });
    expect(pdudaemonCaller('pdudaemon-tcp', '::ffff:10.20.6.9', allow)).toMatchObject({
      who: 'ci',
      role: 'operator',
    });
    expect(pdudaemonCaller('pdudaemon-http', '192.168.10.7', allow)).toEqual({
      door: 'pdudaemon-http',
      who: 'pdudaemon client 192.168.10.7',
      role: 'operator',
    });
  });

  it('refuses a named network without a role, a bad scope, a name given twice, naming the entry', () => {
    expect(parseAllow('ci=10.20.0.0/16')).toBe(
      "--allow ci=10.20.0.0/16: give the client's role in brackets after its network, like ci=10.20.0.0/16[operator] or ci=10.20.0.0/16[operator tags=farm].",
    );
    expect(parseAllow('ci=10.20.0.0/16[root]')).toBe(
      '--allow ci=10.20.0.0/16: the brackets after "ci" start with its role: observer, operator, admin.',
    );
    expect(parseAllow('ci=10.20.0.0/16[operator racks=1]')).toContain('is neither a role nor a scope');
    expect(parseAllow('ci=10.20.0.0/16[operator],ci=10.21.0.0/16[operator]')).toContain(
      '"ci" is given twice',
    );
    expect(parseAllow('ci=lab[operator]')).toContain('is not a network');
    expect(
      resolveAllowScopes(parseAllow('ci=10.20.0.0/16[operator controllers=bench-z]') as ClientNetworks, []),
    ).toContain('no saved controller is called "bench-z"');
  });

  it('says at start what each network may do', () => {
    const saved = [{ id: 'c-1', name: 'Bench A', tags: [] }] as unknown as ControllerSummary[];
    expect(
      pdudaemonLines(allowed('192.168.10.0/24,ci=10.20.0.0/16[operator controllers=c-1]', saved), saved),
    ).toEqual([
      'pdudaemon: its protocol has no login: every account on this machine and the networks 192.168.10.0/24 may switch power through it (as operators).',
      'pdudaemon: clients from 10.20.0.0/16 act as ci (operator of Bench A).',
      'pdudaemon: to give a network a name, a role and a scope, write it as --allow ci=192.168.10.0/24[operator tags=farm].',
    ]);
    expect(pdudaemonLines(null, [])).toEqual([
      'pdudaemon: its protocol has no login: every account on this machine may switch power through it (as operators).',
    ]);
  });
});

describe('the pdudaemon door as a named client', () => {
  it("acts as the client its network names, refused outside its scope in the Core's words", async () => {
    const emu = await emulator({ initialStates: Array<boolean>(8).fill(true) });
    const h = newCore();
    const bench = await addController(h, emu, { name: 'Bench A' });
    await h.ok('controllers/update', { id: bench.id, alias: 'bench-a' });
    const farm = await emulator({ initialStates: Array<boolean>(8).fill(true) });
    const rack = await addController(h, farm, { name: 'Farm 1' });
    await h.ok('controllers/update', { id: rack.id, alias: 'farm-1', tags: ['farm'] });
    const pdu = await listenPdudaemon(h.core, {
      port: 0,
      log: () => undefined,
      confirmTimeoutMs: 20_000,
      allow: allowed('ci=127.0.0.2[operator tags=farm]'),
    });
    listeners.push(pdu);
    emu.device.stats.reset();

    expect(await pduTcp(pdu.port, 'bench-a 3 off', '127.0.0.2')).toBe(
      "nack: ci (operator of tag farm) may not switch outlets: outlet 3 on Bench A is outside its scope. Ask the service's administrator to widen its scope, or use a client whose scope reaches it.\n",
    );
    expect(emu.device.stats.log.filter((e) => e.method !== 'GET')).toEqual([]);
    expect(await pduTcp(pdu.port, 'farm-1 2 off', '127.0.0.2')).toBe('ack\n');
    expect(farm.device.outlet(1).state).toBe(false);
    // Loopback outside the named network: an operator named by its address, as before names.
    expect(await pduTcp(pdu.port, 'bench-a 3 off', '127.0.0.1')).toBe('ack\n');
    expect(emu.device.outlet(2).state).toBe(false);

    const entries = h
      .activity()
      .filter((e: ActivityEntry) => e.outlet !== null && e.action !== 'changed outside Plugboard');
    // A refusal by role or scope happens before any action: the log holds what was done, by whom, and
    // the refused attempt, by the client its network names, in the Core's words.
    expect(entries.map((e) => [e.controllerName, e.outlet, e.who, e.source, e.action, e.result])).toEqual([
      ['Bench A', 3, 'ci', 'pdudaemon-tcp', 'tried to switch outlets', 'error'],
      ['Farm 1', 2, 'ci', 'pdudaemon-tcp', 'off', 'ok'],
      ['Bench A', 3, 'pdudaemon client 127.0.0.1', 'pdudaemon-tcp', 'off', 'ok'],
    ]);
    expect(entries[0]!.error).toMatchObject({
      code: 'FORBIDDEN',
      message: 'ci (operator of tag farm) may not switch outlets: outlet 3 on Bench A is outside its scope.',
    });
  });
});
