/**
 * Every door against the scope check, on one Core (doors-lab.ts): farm, an operator of tag farm, asks to
 * switch outlet 1 of Bench A (which has no tag) through each door it can use. Each door must refuse with
 * FORBIDDEN and the Core's very sentence (the role's code and status), and the unit must hear nothing.
 * The token farm and pdudaemon's clients from 127.0.0.2 (named farm by --allow) are each compared with
 * the Core's own answer to the same caller: a token is "The token \"farm\"", a named network "farm".
 * The web shell, the tray and the command line on a saved controller act as the config folder's owner,
 * an administrator of everything: they have no scope to walk.
 */
import { request } from 'node:http';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { Caller, Result } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/index';
import { connectRemoteCore } from '../../../src-main/link';
import { cli } from '../../cli/run-cli';
import { pduTcp } from '../../serve/pdudaemon-client';
import { doorsLab, FARM_ADDRESS, FARM_SECRET, type DoorsLab } from './doors-lab';

vi.setConfig({ testTimeout: 120_000 });
const LOADED = { timeout: 15_000, interval: 20 };

type Action = 'off' | 'cycle';
type Call = 'outlets/set' | 'outlets/cycle' | 'groups/run' | 'sequences/run';
type As = 'token' | 'network';

interface Seen {
  code: string | null;
  text: string;
  status?: number;
  exit?: number | null;
}

interface Door {
  name: string;
  as: As;
  actions: readonly Action[];
  call(action: Action): Call;
  attempt(lab: DoorsLab, action: Action): Promise<Seen>;
}

const farm: Record<As, (door: Caller['door']) => Caller> = {
  token: (door) => ({
    door,
    who: 'farm',
    role: 'operator',
    credential: 'token',
    scope: { kind: 'some', tags: ['farm'], controllers: [], outlets: [] },
  }),
  network: (door) => ({
    door,
    who: 'farm',
    role: 'operator',
    scope: { kind: 'some', tags: ['farm'], controllers: [], outlets: [] },
  }),
};

function fromResult(result: Result<unknown>): Seen {
  return result.ok ? { code: null, text: 'done' } : { code: result.error.code, text: result.error.message };
}

const outletInput = (lab: DoorsLab, action: Action) =>
  action === 'off'
    ? { controllerId: lab.controllerId, outlets: [1], on: false }
    : { controllerId: lab.controllerId, outlet: 1 };
const outletCall = (action: Action): Call => (action === 'off' ? 'outlets/set' : 'outlets/cycle');
const callInput = (lab: DoorsLab, call: Call) =>
  call === 'groups/run'
    ? { id: lab.group.id, action: 'off' }
    : call === 'sequences/run'
      ? { id: lab.sequence.id, action: 'off' }
      : outletInput(lab, call === 'outlets/set' ? 'off' : 'cycle');

/** pdudaemon's HTTP GET, sent from `from` (a loopback address) as a client there would. */
function pduGetFrom(port: number, path: string, from: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, path, localAddress: from }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

const DOORS: Door[] = [
  {
    name: 'Core call (the window)',
    as: 'token',
    actions: ['off', 'cycle'],
    call: outletCall,
    attempt: (lab, action) =>
      dispatch(lab.core.handlersAs(farm.token('window')), outletCall(action), outletInput(lab, action)).then(
        fromResult,
      ),
  },
  {
    name: 'groups run',
    as: 'token',
    actions: ['off'],
    call: () => 'groups/run',
    attempt: (lab) =>
      dispatch(lab.core.handlersAs(farm.token('cli')), 'groups/run', callInput(lab, 'groups/run')).then(
        fromResult,
      ),
  },
  {
    name: 'sequences run',
    as: 'token',
    actions: ['off'],
    call: () => 'sequences/run',
    attempt: (lab) =>
      dispatch(lab.core.handlersAs(farm.token('cli')), 'sequences/run', callInput(lab, 'sequences/run')).then(
        fromResult,
      ),
  },
  {
    name: 'link (/api/v1/link)',
    as: 'token',
    actions: ['off', 'cycle'],
    call: outletCall,
    async attempt(lab, action) {
      const link = await connectRemoteCore(lab.api, { token: FARM_SECRET });
      try {
        const handlers = link.handlersAs({ door: 'cli', who: 'someone' });
        const work =
          action === 'off'
            ? handlers['outlets/set']({ controllerId: lab.controllerId, outlets: [1], on: false })
            : handlers['outlets/cycle']({ controllerId: lab.controllerId, outlet: 1 });
        return await work.then(
          () => ({ code: null, text: 'done' }),
          (error: { code: string; message: string }) => ({ code: error.code, text: error.message }),
        );
      } finally {
        await link.close();
      }
    },
  },
  {
    name: 'JSON API',
    as: 'token',
    actions: ['off', 'cycle'],
    call: outletCall,
    async attempt(lab, action) {
      const answer = await fetch(`${lab.api}/api/v1/controllers/Bench%20A/outlets/1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${FARM_SECRET}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ action }),
      });
      const { error } = (await answer.json()) as { error: { code: string; message: string } };
      return { code: error.code, text: error.message, status: answer.status };
    },
  },
  {
    name: 'CLI --service',
    as: 'token',
    actions: ['off', 'cycle'],
    call: outletCall,
    async attempt(lab, action) {
      const env = { ...lab.env, PLUGBOARD_SERVICE_TOKEN: FARM_SECRET };
      const run = await cli(['--service', lab.api, action, 'Bench A:1'], { env });
      return { code: /\[([A-Z_]+)\]\s*$/.exec(run.stderr)?.[1] ?? null, text: run.stderr, exit: run.code };
    },
  },
  {
    name: 'pdudaemon HTTP from the farm network',
    as: 'network',
    actions: ['off', 'cycle'],
    call: outletCall,
    async attempt(lab, action) {
      const command = action === 'off' ? 'off' : 'reboot';
      const path = `/power/control/${command}?hostname=bench-a&port=1`;
      const answer = await pduGetFrom(lab.pdudaemonPort, path, FARM_ADDRESS);
      return { code: null, text: answer.body, status: answer.status };
    },
  },
  {
    name: 'pdudaemon TCP from the farm network',
    as: 'network',
    actions: ['off', 'cycle'],
    call: outletCall,
    async attempt(lab, action) {
      const line = `bench-a 1 ${action === 'off' ? 'off' : 'reboot'}`;
      return { code: null, text: await pduTcp(lab.pdudaemonPort, line, FARM_ADDRESS) };
    },
  },
];

let lab: DoorsLab;
beforeEach(async () => {
  lab = await doorsLab();
});
afterEach(async () => {
  await lab.close();
});

it('refuses farm outside its scope at every door with one code and one sentence, and the unit hears nothing', async () => {
  const read = () => lab.core.handlers['app/snapshot']({});
  await vi.waitFor(async () => expect((await read()).states[0]?.outlets).toHaveLength(8), LOADED);
  lab.emu.device.stats.reset();
  // The Core's own refusal for each caller and call, as the window's dispatcher answers it.
  const reference = new Map<string, Seen>();
  for (const as of ['token', 'network'] as const)
    for (const call of ['outlets/set', 'outlets/cycle', 'groups/run', 'sequences/run'] as const) {
      const door = as === 'token' ? 'window' : 'pdudaemon-tcp';
      const seen = fromResult(
        await dispatch(lab.core.handlersAs(farm[as](door)), call, callInput(lab, call)),
      );
      expect(seen.code, call).toBe('FORBIDDEN');
      reference.set(`${as} ${call}`, seen);
    }
  expect(reference.get('token outlets/set')!.text).toBe(
    'The token "farm" (operator of tag farm) may not switch outlets: outlet 1 on Bench A is outside its scope.',
  );
  expect(reference.get('network outlets/cycle')!.text).toBe(
    'farm (operator of tag farm) may not cycle outlets: outlet 1 on Bench A is outside its scope.',
  );
  const walked: string[] = [];
  for (const door of DOORS)
    for (const action of door.actions) {
      const expected = reference.get(`${door.as} ${door.call(action)}`)!;
      const seen = await door.attempt(lab, action);
      const where = `${door.name}, ${action}`;
      expect(seen.text, where).toContain(expected.text);
      if (seen.code !== null) expect(seen.code, where).toBe('FORBIDDEN');
      if (seen.status !== undefined) expect(seen.status, where).toBe(403);
      if (seen.exit !== undefined) expect(seen.exit, where).toBe(4);
      walked.push(where);
    }
  expect(walked).toHaveLength(14);
  expect(lab.emu.device.stats.log.filter((e) => e.method !== 'GET')).toEqual([]);
  expect(lab.emu.device.outlet(0).state).toBe(true);

  // Tagged farm, Bench A is inside: the same token switches it.
  await lab.core.handlers['controllers/update']({ id: lab.controllerId, tags: ['farm'] });
  const done = await dispatch(
    lab.core.handlersAs(farm.token('json-api')),
    'outlets/set',
    outletInput(lab, 'off'),
  );
  expect(done).toMatchObject({ ok: true, value: { failed: [] } });
  expect(lab.emu.device.outlet(0).state).toBe(false);
});
