/**
 * Every door against every switch rule, on one Core (doors-lab.ts): a critical outlet switched off or
 * cycled without confirmation, an outlet someone else reserved, a caller whose role is too low. Each door
 * must refuse with the Core's code and its very sentence, adding at most how to confirm in its own terms,
 * and switch nothing. The doors are a table: another door is one more row.
 */
import WebSocket from 'ws';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Caller, Result } from '../../../src-preload/contract';
import { dispatch } from '../../../src-main/core/index';
import { connectRemoteCore } from '../../../src-main/link';
import { SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from '../../../src-main/web/access';
import { cli } from '../../cli/run-cli';
import { Client } from '../../web/web-helpers';
import { pduGet, pduTcp } from '../../serve/pdudaemon-client';
import { doorsLab, OBSERVER_SECRET, OPERATOR_SECRET, type DoorsLab } from './doors-lab';

vi.setConfig({ testTimeout: 120_000 });
const LOADED = { timeout: 15_000, interval: 20 };

type Rule = 'critical' | 'reserved' | 'role';
type Action = 'off' | 'cycle';
/** The contract call a door makes for an action: the role's refusal names it. */
type Call = 'outlets/set' | 'outlets/cycle' | 'groups/run' | 'sequences/run';

/** What a door answered: a code where it carries one, its words, and its own status or exit code. */
interface Seen {
  code: string | null;
  text: string;
  status?: number;
  exit?: number | null;
}

interface Door {
  name: string;
  /** Who the door acts as under each rule: the operator (ops), or the observer for the role rule. */
  attempt(lab: DoorsLab, rule: Rule, action: Action): Promise<Seen>;
  call(action: Action): Call;
  /** The actions it offers. */
  actions: readonly Action[];
  /** Why a rule cannot be met at this door (it acts as the config folder's owner): not walked. */
  cannot?: Partial<Record<Rule, string>>;
}

const CODES: Record<Rule, string> = {
  critical: 'CRITICAL_UNCONFIRMED',
  reserved: 'RESERVED',
  role: 'FORBIDDEN',
};
const HTTP: Record<Rule, number> = { critical: 409, reserved: 409, role: 403 };
const EXIT: Record<Rule, number> = { critical: 7, reserved: 5, role: 4 };
const OWNER = 'acts as the owner of the config folder, an administrator';

const operator = (door: Caller['door']): Caller => ({
  door,
  who: 'ops',
  role: 'operator',
  credential: 'token',
});
const observer = (door: Caller['door']): Caller => ({
  door,
  who: 'viewer',
  role: 'observer',
  credential: 'token',
});
const secret = (rule: Rule) => (rule === 'role' ? OBSERVER_SECRET : OPERATOR_SECRET);

function fromResult(result: Result<unknown>): Seen {
  if (result.ok) return { code: null, text: 'done' };
  return { code: result.error.code, text: result.error.message };
}

async function caught(work: Promise<unknown>): Promise<Seen> {
  try {
    await work;
    return { code: null, text: 'done' };
  } catch (error) {
    const { code, message } = error as { code: string; message: string };
    return { code, text: message };
  }
}

/** A Core call as the window's preload makes it: through the dispatcher, as `caller`. */
function coreCall(lab: DoorsLab, rule: Rule, name: Call, input: unknown): Promise<Seen> {
  const caller = rule === 'role' ? observer('window') : operator('window');
  return dispatch(lab.core.handlersAs(caller), name, input).then(fromResult);
}

const outletInput = (lab: DoorsLab, action: Action) =>
  action === 'off'
    ? { controllerId: lab.controllerId, outlets: [1], on: false }
    : { controllerId: lab.controllerId, outlet: 1 };

const outletCall = (action: Action): Call => (action === 'off' ? 'outlets/set' : 'outlets/cycle');

const DOORS: Door[] = [
  {
    name: 'Core call (the window)',
    actions: ['off', 'cycle'],
    call: outletCall,
    attempt: (lab, rule, action) => coreCall(lab, rule, outletCall(action), outletInput(lab, action)),
  },
  {
    name: 'groups run',
    actions: ['off', 'cycle'],
    call: () => 'groups/run',
    attempt: (lab, rule, action) => coreCall(lab, rule, 'groups/run', { id: lab.group.id, action }),
  },
  {
    name: 'sequences run',
    actions: ['off'],
    call: () => 'sequences/run',
    attempt: (lab, rule) => coreCall(lab, rule, 'sequences/run', { id: lab.sequence.id, action: 'off' }),
  },
  {
    name: 'link (/api/v1/link)',
    actions: ['off', 'cycle'],
    call: outletCall,
    async attempt(lab, rule, action) {
      const link = await connectRemoteCore(lab.api, { token: secret(rule) });
      try {
        const handlers = link.handlersAs({ door: 'cli', who: 'someone' });
        return await caught(
          action === 'off'
            ? handlers['outlets/set']({ controllerId: lab.controllerId, outlets: [1], on: false })
            : handlers['outlets/cycle']({ controllerId: lab.controllerId, outlet: 1 }),
        );
      } finally {
        await link.close();
      }
    },
  },
  {
    name: 'JSON API',
    actions: ['off', 'cycle'],
    call: outletCall,
    async attempt(lab, rule, action) {
      const answer = await fetch(`${lab.api}/api/v1/controllers/Bench%20A/outlets/1`, {
        method: 'POST',
        headers: { Authorization: `Bearer ${secret(rule)}`, 'Content-Type': 'application/json' },
        body: JSON.stringify({ action }),
      });
      const { error } = (await answer.json()) as { error: { code: string; message: string } };
      return { code: error.code, text: error.message, status: answer.status };
    },
  },
  {
    name: 'pdudaemon HTTP',
    actions: ['off', 'cycle'],
    call: outletCall,
    cannot: { role: 'has no login: every client is an operator' },
    async attempt(lab, _rule, action) {
      const command = action === 'off' ? 'off' : 'reboot';
      const answer = await pduGet(lab.pdudaemonPort, `/power/control/${command}?hostname=bench-a&port=1`);
      return { code: null, text: answer.body, status: answer.status };
    },
  },
  {
    name: 'pdudaemon TCP',
    actions: ['off', 'cycle'],
    call: outletCall,
    cannot: { role: 'has no login: every client is an operator' },
    async attempt(lab, _rule, action) {
      const text = await pduTcp(lab.pdudaemonPort, `bench-a 1 ${action === 'off' ? 'off' : 'reboot'}`);
      return { code: null, text };
    },
  },
  {
    name: 'web shell',
    actions: ['off', 'cycle'],
    call: outletCall,
    cannot: { role: OWNER },
    async attempt(lab, _rule, action) {
      const { host, origin } = new URL(lab.web.url);
      const socket = new WebSocket(
        `ws://${host}/ws`,
        [SOCKET_PROTOCOL, `${TOKEN_PROTOCOL_PREFIX}${lab.web.token}`],
        {
          headers: { Origin: origin },
        },
      );
      await new Promise((open, fail) => socket.once('open', open).once('error', fail));
      try {
        return fromResult(await new Client(socket).call(outletCall(action), outletInput(lab, action)));
      } finally {
        socket.close();
      }
    },
  },
  {
    name: 'tray',
    actions: ['off'],
    call: outletCall,
    cannot: { role: OWNER },
    async attempt(lab) {
      const [notices, confirms] = [lab.notices.length, lab.confirms.length];
      lab.tray.run({ kind: 'set', controllerId: lab.controllerId, outlet: 1, on: false });
      await vi.waitFor(
        () => expect(lab.notices.length + lab.confirms.length).toBe(notices + confirms + 1),
        LOADED,
      );
      // Refused for want of a confirmation, the tray asks the window with the Core's sentence.
      const asked = lab.confirms.length > confirms ? lab.confirms.at(-1)! : null;
      if (asked) {
        expect(asked).toMatchObject({ controllerId: lab.controllerId, outlets: [1], action: 'off' });
        return { code: 'CRITICAL_UNCONFIRMED', text: asked.reason };
      }
      return { code: null, text: lab.notices.at(-1)!.body };
    },
  },
  {
    name: 'CLI, saved controller',
    actions: ['off', 'cycle'],
    call: outletCall,
    cannot: { role: OWNER },
    async attempt(lab, _rule, action) {
      const run = await cli(['--controller', 'Bench A', action, '1'], { env: lab.env });
      return { code: /\[([A-Z_]+)\]\s*$/.exec(run.stderr)?.[1] ?? null, text: run.stderr, exit: run.code };
    },
  },
  {
    name: 'CLI --service',
    actions: ['off', 'cycle'],
    call: outletCall,
    async attempt(lab, rule, action) {
      const env = { ...lab.env, PLUGBOARD_SERVICE_TOKEN: secret(rule) };
      const run = await cli(['--service', lab.api, action, 'Bench A:1'], { env });
      return { code: /\[([A-Z_]+)\]\s*$/.exec(run.stderr)?.[1] ?? null, text: run.stderr, exit: run.code };
    },
  },
];

/** Puts the rule in place on the lab. */
async function arrange(lab: DoorsLab, rule: Rule): Promise<void> {
  const read = () => lab.core.handlers['app/snapshot']({});
  await vi.waitFor(async () => expect((await read()).states[0]?.outlets).toHaveLength(8), LOADED);
  if (rule === 'critical') {
    lab.emu.device.setCritical(0, true);
    await lab.core.handlers['controllers/refresh']({ id: lab.controllerId });
    await vi.waitFor(async () => expect((await read()).states[0]!.outlets[0]!.critical).toBe(true), LOADED);
  }
  if (rule === 'reserved')
    await lab.core.handlersAs({ door: 'window', who: 'alice', role: 'operator' })['reservations/take']({
      target: { kind: 'outlet', controllerId: lab.controllerId, outlet: 1 },
      reason: 'soak test',
      durationMs: 3_600_000,
    });
}

let lab: DoorsLab;
beforeEach(async () => {
  lab = await doorsLab();
});
afterEach(async () => {
  await lab.close();
});

describe.each(['critical', 'reserved', 'role'] as const)('the %s rule at every door', (rule) => {
  it('refuses with one code and one sentence, and switches nothing', async () => {
    await arrange(lab, rule);
    // The Core's own refusal for each call, as the window's dispatcher answers it.
    const reference = new Map<Call, Seen>();
    for (const call of ['outlets/set', 'outlets/cycle', 'groups/run', 'sequences/run'] as const) {
      const input =
        call === 'groups/run'
          ? { id: lab.group.id, action: 'off' }
          : call === 'sequences/run'
            ? { id: lab.sequence.id, action: 'off' }
            : outletInput(lab, call === 'outlets/set' ? 'off' : 'cycle');
      const seen = await coreCall(lab, rule, call, input);
      expect(seen.code, call).toBe(CODES[rule]);
      reference.set(call, seen);
    }
    // A rule's sentence is about the outlets, so it is the same whichever call met it; a role's names the call.
    if (rule !== 'role') expect(new Set([...reference.values()].map((seen) => seen.text)).size).toBe(1);
    const walked: string[] = [];
    for (const door of DOORS) {
      if (door.cannot?.[rule]) continue;
      for (const action of door.actions) {
        const expected = reference.get(door.call(action))!;
        const seen = await door.attempt(lab, rule, action);
        const where = `${door.name}, ${action}`;
        // The sentence as the Core said it; a door may add how to confirm after it, never reword it.
        expect(seen.text, where).toContain(expected.text);
        if (seen.code !== null) expect(seen.code, where).toBe(CODES[rule]);
        if (seen.status !== undefined) expect(seen.status, where).toBe(HTTP[rule]);
        if (seen.exit !== undefined) expect(seen.exit, where).toBe(EXIT[rule]);
        walked.push(where);
      }
    }
    expect(lab.emu.device.outlet(0).state).toBe(true);
    expect(walked.length).toBeGreaterThanOrEqual(rule === 'role' ? 9 : 17);
  });
});

it('names the critical outlet in one sentence that says what to do, in no door’s terms', async () => {
  await arrange(lab, 'critical');
  expect(await coreCall(lab, 'critical', 'outlets/set', outletInput(lab, 'off'))).toEqual({
    code: 'CRITICAL_UNCONFIRMED',
    text: 'Outlet 1 on Bench A is marked critical, so nothing was switched: confirm that it may lose power, then ask again.',
  });
  // Confirmed, every door's call goes through: here the window's.
  const done = await dispatch(lab.core.handlersAs(operator('window')), 'outlets/set', {
    ...outletInput(lab, 'off'),
    confirmCritical: true,
  });
  expect(done).toMatchObject({ ok: true, value: { failed: [] } });
  expect(lab.emu.device.outlet(0).state).toBe(false);
});
