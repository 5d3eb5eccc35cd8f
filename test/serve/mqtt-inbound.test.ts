/**
 * What the MQTT door hears, in process: commands parsed and carried out through the handlers it is given
 * (each once: a retained one never, a repeat by correlation data or id gets the first answer), and the
 * units' own messages handed to the Core as hints (an outlet counted from 0 on the unit, a `/set` warned of).
 */
import type { IPublishPacket } from 'mqtt';
import { describe, expect, it } from 'vitest';
import type { Handlers } from '../../src-preload/contract';
import { parseCommand, type CommandAnswer } from '../../src-main/serve/mqtt/commands';
import { Inbound } from '../../src-main/serve/mqtt/inbound';

function packet(topic: string, extra: Partial<IPublishPacket> = {}): IPublishPacket {
  return { cmd: 'publish', topic, payload: Buffer.alloc(0), qos: 1, dup: false, retain: false, ...extra };
}

function door() {
  const calls: unknown[] = [];
  const answers: { topic: string; answer: CommandAnswer }[] = [];
  const said: unknown[] = [];
  const setSeen: unknown[] = [];
  const waiting: (() => void)[] = [];
  const handlers = {
    'outlets/set': async (input: unknown) => {
      calls.push(['set', input]);
      return { requested: [1], failed: [] };
    },
    'outlets/cycle': async (input: unknown) => {
      calls.push(['cycle', input]);
      return { requested: [1], failed: [] };
    },
  } as unknown as Handlers;
  const inbound = new Inbound({
    prefix: 'plugboard',
    handlers: () => handlers,
    hints: {
      unitSaid: (id, message) => said.push([id, message]),
      unitSetSeen: (id, topic) => setSeen.push([id, topic]),
    },
    log: () => undefined,
    controllerOf: (level) => (level === 'LPC9001' ? { controllerId: 'c1', serial: 'LPC9001' } : null),
    unitOf: (topic) =>
      topic.startsWith('lab/units/a/') ? { controllerId: 'c1', root: 'lab/units/a' } : null,
    answer: (topic, answer) => {
      answers.push({ topic, answer });
      waiting.splice(0).forEach((wake) => wake());
    },
  });
  const answered = (count: number) =>
    new Promise<void>((resolve) => {
      const check = () => (answers.length >= count ? resolve() : waiting.push(check));
      check();
    });
  return { inbound, calls, answers, said, setSeen, answered };
}

const SET = 'plugboard/LPC9001/outlet/3/set';

describe('MQTT commands', () => {
  it('parse ON, OFF and CYCLE with confirm= and id=, and say what a good one is', () => {
    expect(parseCommand('off')).toEqual({ word: 'OFF', confirm: null, id: null });
    expect(parseCommand(' CYCLE confirm=LPC9001-3 id=job-7 ')).toEqual({
      word: 'CYCLE',
      confirm: 'LPC9001-3',
      id: 'job-7',
    });
    expect(parseCommand('TOGGLE')).toMatch(/^"TOGGLE" is not a command: send ON, OFF or CYCLE/);
    expect(parseCommand('OFF please')).toMatch(/^"please" after OFF is neither confirm=/);
  });

  it('are carried out once, confirm only their own outlet, and a retained one never', async () => {
    const { inbound, calls, answers, answered } = door();
    inbound.heard(SET, Buffer.from('OFF confirm=LPC9001-3'), packet(SET));
    await answered(1);
    expect(calls).toEqual([['set', { controllerId: 'c1', outlets: [3], on: false, confirmCritical: true }]]);
    expect(answers[0]).toEqual({
      topic: SET,
      answer: { ok: true, outlet: 'LPC9001-3', command: 'OFF' },
    });

    inbound.heard(SET, Buffer.from('OFF'), packet(SET, { retain: true }));
    await answered(2);
    expect(answers[1]!.answer).toMatchObject({ ok: false, code: 'BAD_INPUT' });

    inbound.heard(SET, Buffer.from('CYCLE confirm=LPC9001-4'), packet(SET));
    await answered(3);
    expect(answers[2]!.answer.message).toBe(
      'confirm=LPC9001-4 names another outlet: this is LPC9001-3, so confirm=LPC9001-3 confirms it.',
    );
    // Neither the retained command nor the wrongly confirmed one reached the Core.
    expect(calls).toHaveLength(1);

    const correlated = packet(SET, {
      properties: { responseTopic: 'plugboard/reply/ha/x', correlationData: Buffer.from('r-1') },
    });
    inbound.heard(SET, Buffer.from('CYCLE'), correlated);
    inbound.heard(SET, Buffer.from('CYCLE'), correlated);
    inbound.heard(SET, Buffer.from('ON id=j-1'), packet(SET));
    inbound.heard(SET, Buffer.from('ON id=j-1'), packet(SET));
    await answered(7);
    expect(calls.slice(1)).toEqual([
      ['cycle', { controllerId: 'c1', outlet: 3, confirmCritical: false }],
      ['set', { controllerId: 'c1', outlets: [3], on: true, confirmCritical: false }],
    ]);
    expect(answers[4]!.answer).toEqual(answers[3]!.answer);
    expect(answers[6]!.answer).toEqual({ ok: true, outlet: 'LPC9001-3', command: 'ON', id: 'j-1' });

    const unknown = 'plugboard/NOPE/outlet/1/set';
    inbound.heard(unknown, Buffer.from('ON'), packet(unknown));
    await answered(8);
    expect(answers[7]!.answer).toMatchObject({ ok: false, code: 'NOT_FOUND' });
    // An empty message (clearing a retained command) is no command: nothing answered.
    inbound.heard(SET, Buffer.alloc(0), packet(SET));
    expect(answers).toHaveLength(8);
  });
});

describe('a unit’s own messages', () => {
  it('are hints for the Core (outlets counted from 0 on the unit), and its /set is warned of', () => {
    const { inbound, said, setSeen, calls } = door();
    inbound.heard('lab/units/a/outlets/0', Buffer.from('1'), packet('lab/units/a/outlets/0'));
    inbound.heard('lab/units/a/other', Buffer.from('x'), packet('lab/units/a/other'));
    inbound.heard('lab/units/a/outlets/2/set', Buffer.from('0'), packet('lab/units/a/outlets/2/set'));
    inbound.heard('lab/units/b/outlets/0', Buffer.from('1'), packet('lab/units/b/outlets/0'));
    expect(said).toEqual([
      ['c1', { outlet: 1, topic: 'lab/units/a/outlets/0', payload: '1' }],
      ['c1', { outlet: null, topic: 'lab/units/a/other', payload: 'x' }],
    ]);
    expect(setSeen).toEqual([['c1', 'lab/units/a/outlets/2/set']]);
    expect(calls).toEqual([]);
  });
});
