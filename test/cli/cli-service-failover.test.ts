/**
 * `--service` with a lab's several services (a leader and standbys on one lab store): the CLI uses the
 * first that answers, sends a change a standby refused once more to the leader it names when the person
 * gave that address, reports the refusal otherwise (sending nothing anywhere else), and names every
 * address when none answers. The leader is the service's real api listener over an emulated unit; the
 * standby is the link protocol's thin double (lab-services.ts), since standbys live in the service.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { EXIT_UNREACHABLE, EXIT_USAGE } from '../../src-main/cli/exit-codes';
import { connectServices } from '../../src-main/cli/service-follow';
import { serviceAddresses } from '../../src-main/cli/service-list';
import {
  type Cleanups,
  SECRET,
  leadingService,
  silentAddress,
  standbyMessage,
  standbyService,
} from './lab-services';
import { cli } from './run-cli';

vi.setConfig({ testTimeout: 120_000 });

const cleanups: Cleanups = [];
afterEach(async () => {
  for (const done of cleanups.splice(0).reverse()) await done();
});

describe('--service with several addresses', () => {
  it('skips an address that does not answer, with a note, and uses the next', async () => {
    const leader = await leadingService(cleanups);
    const down = await silentAddress();
    const run = await cli(['--service', `${down},${leader.origin}`, 'on', 'Bench A:3', '--wait'], {
      env: leader.env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(leader.emu.device.outlet(2).physicalState).toBe(true);
    expect(run.stderr).toMatch(
      new RegExp(
        `^plugboard: no answer from the Plugboard service at ${down} \\(.*ECONNREFUSED.*\\); trying ${leader.origin}\\.$`,
        'm',
      ),
    );
    // The same through the environment, the dead address given last: not tried at all.
    const again = await cli(['off', 'Bench A:3', '--wait'], {
      env: { ...leader.env, PLUGBOARD_SERVICE: `${leader.origin}, ${down}` },
    });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toBe('');
    expect(leader.emu.device.outlet(2).physicalState).toBe(false);
  });

  it('sends a change a standby refused to the leader it names, once, when that address was given', async () => {
    const leader = await leadingService(cleanups);
    const standby = await standbyService(cleanups, leader.core, 'pdu-b', {
      name: 'pdu-a',
      address: leader.origin,
    });
    const run = await cli(
      ['--service', standby.origin, '--service', leader.origin, 'on', 'Bench A:3', '--wait'],
      {
        env: leader.env,
      },
    );
    expect(run.code, run.stderr).toBe(0);
    // The standby answered the reads and refused the switch; the leader switched it, once.
    expect(standby.calls).toContain('app/snapshot');
    expect(standby.refused).toEqual(['outlets/set']);
    expect(leader.emu.device.outlet(2).physicalState).toBe(true);
    expect(leader.entries.filter((e) => e.outlet === 3 && e.action === 'on')).toHaveLength(1);
    expect(run.stderr).toContain(
      `plugboard: the Plugboard service at ${standby.origin} is a standby; sending to pdu-a at ${leader.origin}, which leads.`,
    );
  });

  it('reports the refusal when the leader it names was not given, and sends it nowhere else', async () => {
    const leader = await leadingService(cleanups);
    let connections = 0;
    const elsewhere = createServer((_request, response) => response.end());
    elsewhere.on('connection', () => connections++);
    await new Promise<void>((resolve) => elsewhere.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => elsewhere.close(() => resolve())));
    const named = `http://127.0.0.1:${(elsewhere.address() as AddressInfo).port}`;
    const standby = await standbyService(cleanups, leader.core, 'pdu-b', { name: 'pdu-c', address: named });

    const run = await cli(['--service', `${standby.origin},${leader.origin}`, 'on', 'Bench A:3'], {
      env: leader.env,
    });
    expect(run.code, run.stderr).toBe(EXIT_UNREACHABLE);
    expect(run.stderr).toContain(standbyMessage('pdu-b', 'pdu-c', named));
    expect(run.stderr).toContain(`${named} is not among the services given with --service`);
    expect(standby.refused).toEqual(['outlets/set']);
    expect(connections).toBe(0);
    // The leader that was given but not named got nothing either.
    expect(leader.entries).toEqual([]);
    expect(leader.emu.device.outlet(2).physicalState).toBe(false);
  });

  it("without the leader's address, tries each other given service once", async () => {
    const leader = await leadingService(cleanups);
    const standby = await standbyService(cleanups, leader.core, 'pdu-b', null);
    const run = await cli(['--service', `${standby.origin},${leader.origin}`, 'on', 'Bench A:5', '--wait'], {
      env: leader.env,
    });
    expect(run.code, run.stderr).toBe(0);
    expect(standby.refused).toEqual(['outlets/set']);
    expect(leader.entries.filter((e) => e.outlet === 5 && e.action === 'on')).toHaveLength(1);

    // Only standbys given: the refusal's sentence, exit 3.
    const other = await standbyService(cleanups, leader.core, 'pdu-c', null);
    const none = await cli(['--service', `${standby.origin},${other.origin}`, 'off', 'Bench A:5'], {
      env: leader.env,
    });
    expect(none.code, none.stderr).toBe(EXIT_UNREACHABLE);
    expect(none.stderr).toContain(standbyMessage('pdu-c', null, null));
    expect(other.refused).toEqual(['outlets/set']);
    expect(leader.emu.device.outlet(4).physicalState).toBe(true);
  });

  it('ends the command at an address that answers but is not a Plugboard service, trying no other', async () => {
    const leader = await leadingService(cleanups);
    const run = await cli(['--service', `${leader.emu.url},${leader.origin}`, 'on', 'Bench A:3'], {
      env: leader.env,
    });
    expect(run.code, run.stderr).toBe(1);
    expect(run.stderr).toContain("not a Plugboard service's remote link");
    expect(run.stderr).not.toContain('trying');
    expect(leader.entries).toEqual([]);
  });

  it('never sends a change again when the link broke with it under way; the next call reconnects', async () => {
    const leader = await leadingService(cleanups);
    const dying = await standbyService(cleanups, leader.core, 'pdu-b', null, true);
    const notes: string[] = [];
    const link = await connectServices(
      [
        { url: dying.origin, fingerprint: undefined },
        { url: leader.origin, fingerprint: undefined },
      ],
      { token: SECRET, note: (line) => notes.push(line) },
    );
    cleanups.push(() => link.close());
    const handlers = link.handlersAs({ door: 'cli', who: 'tester' });
    const [bench] = await handlers['controllers/list']({});
    await expect(
      handlers['outlets/set']({ controllerId: bench!.id, outlets: [3], on: true }),
    ).rejects.toMatchObject({
      code: 'UNREACHABLE',
      message: expect.stringContaining('whether this took effect is not known'),
    });
    expect(dying.calls.filter((name) => name === 'outlets/set')).toHaveLength(1);
    expect(leader.entries).toEqual([]);
    expect(notes).toEqual([]);
    // A call made after the link closed was never sent on it: it goes to the first that answers.
    expect(await handlers['controllers/list']({})).toHaveLength(1);
    expect(notes).toEqual([
      `plugboard: the Plugboard service at ${dying.origin} closed the link; trying again.`,
    ]);
    expect(leader.emu.device.outlet(2).physicalState).toBe(false);
  });

  it('names each address and why when none answers', async () => {
    const [a, b] = [await silentAddress(), await silentAddress()];
    const run = await cli(['--service', a, '--service', b, 'outlets', '--controller', 'Bench A'], {
      env: (await leadingService(cleanups)).env,
    });
    expect(run.code, run.stderr).toBe(EXIT_UNREACHABLE);
    expect(run.stderr).toMatch(
      new RegExp(
        `No Plugboard service answered: ${a} \\(.*ECONNREFUSED.*\\); ${b} \\(.*ECONNREFUSED.*\\)\\.`,
      ),
    );
  });
});

describe('the addresses and their fingerprints', () => {
  const pin = (n: number): string => Array(32).fill(String(n).padStart(2, '0')).join(':');

  it('takes one fingerprint for every address, or one per address in order', () => {
    expect(serviceAddresses('https://a:1, https://b:2', pin(11))).toEqual([
      { url: 'https://a:1', fingerprint: pin(11) },
      { url: 'https://b:2', fingerprint: pin(11) },
    ]);
    expect(serviceAddresses('https://a:1,https://b:2', `${pin(11)},${pin(22)}`)).toEqual([
      { url: 'https://a:1', fingerprint: pin(11) },
      { url: 'https://b:2', fingerprint: pin(22) },
    ]);
    expect(serviceAddresses('https://a:1,http://b:2', `${pin(11)},`)).toEqual([
      { url: 'https://a:1', fingerprint: pin(11) },
      { url: 'http://b:2', fingerprint: undefined },
    ]);
  });

  it('refuses another count of fingerprints, and an empty address, before anything is sent', async () => {
    const run = await cli(
      ['--service', 'https://a:1', '--service', 'https://b:2', '--service', 'https://c:3'].concat([
        '--service-fingerprint',
        pin(11),
        '--service-fingerprint',
        pin(22),
        'outlets',
        '--controller',
        'X',
      ]),
    );
    expect(run.code).toBe(EXIT_USAGE);
    expect(run.stderr).toContain('--service names 3 services but --service-fingerprint gives 2 fingerprints');
    const empty = await cli(['outlets', '--controller', 'X'], {
      env: { PLUGBOARD_SERVICE: 'https://a:1,,https://b:2' },
    });
    expect(empty.code).toBe(EXIT_USAGE);
    expect(empty.stderr).toContain('has an empty address');
  });
});
