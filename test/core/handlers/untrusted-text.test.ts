/**
 * Untrusted text at the Core's edge: what people type that is shown everywhere and matched on (names,
 * aliases, tags) is refused with a sentence naming the character; a reservation's reason, prose, is
 * cleaned; and what a controller sends reaches pdudaemon answers and the log clean.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { Reservation, Result } from '../../../src-preload/contract';
import type { Caller } from '../../../src-preload/model';
import { dispatch } from '../../../src-main/core/handlers/dispatch';
import { addController, cleanUp, emulator, newCore, until } from '../harness';

afterEach(cleanUp);

/** A control or bidirectional character, written out here so the test does not trust the code it tests. */
const unsafe = (text: string): boolean =>
  [...text].some((ch) => {
    const c = ch.codePointAt(0)!;
    return (
      c < 0x20 ||
      (c >= 0x7f && c <= 0x9f) ||
      c === 0x200e ||
      c === 0x200f ||
      c === 0x061c ||
      (c >= 0x202a && c <= 0x202e) ||
      (c >= 0x2066 && c <= 0x2069)
    );
  });

async function bench() {
  const emu = await emulator();
  const h = newCore({ user: 'alice' });
  const { id } = await addController(h, emu, { name: 'Bench A' });
  return { emu, h, id };
}

function refusedWith(result: Result<unknown>): string {
  if (result.ok) throw new Error(`expected BAD_INPUT, got ${JSON.stringify(result.value)}`);
  expect(result.error.code).toBe('BAD_INPUT');
  return result.error.message;
}

describe('untrusted text', () => {
  it('refuses names, aliases, tags and group names with a control or text-direction character, naming it', async () => {
    const { h, id } = await bench();
    const cases: [string, unknown, RegExp][] = [
      [
        'controllers/update',
        { id, name: 'Bench\u001b[31m A' },
        /name contains an escape character \(U\+001B\)/,
      ],
      [
        'controllers/update',
        { id, alias: 'bench\u202Ea' },
        /alias contains a text-direction control \(U\+202E\)/,
      ],
      ['controllers/update', { id, tags: ['rack\u00007'] }, /contains a control character \(U\+0000\)/],
      [
        'groups/save',
        { name: 'DUT\n[plugboard serve] stopping', members: [{ controllerId: id, outlet: 1 }] },
        /name contains a line break \(U\+000A\)/,
      ],
      ['outlets/rename', { controllerId: id, outlet: 1, name: 'Scope\u2066' }, /contains a text-direction/],
    ];
    for (const [call, input, problem] of cases)
      expect(refusedWith(await h.call(call, input)), call).toMatch(problem);
    // Nothing was saved.
    expect((await h.ok<{ name: string }[]>('controllers/list', {}))[0]!.name).toBe('Bench A');
    expect(await h.ok('groups/list', {})).toEqual([]);
  });

  it('the Core refuses them too when called without the contract (a door that calls handlers directly)', async () => {
    const { h, id } = await bench();
    await expect(h.core.handlers['controllers/update']({ id, name: 'A\u009bB' })).rejects.toThrow(
      /contains a control character \(U\+009B\)/,
    );
    await expect(
      h.core.handlers['groups/save']({ name: 'G\u200f', members: [{ controllerId: id, outlet: 1 }] }),
    ).rejects.toThrow(/text-direction control \(U\+200F\)/);
  });

  it('cleans a reservation reason, and the refusal another client reads is one clean line', async () => {
    const { emu, h, id } = await bench();
    emu.device.setOutlet(2, { name: 'Router\u001b[2J\n\u202Eexe' });
    await until(h, id, (s) => s.outlets[2]?.name.startsWith('Router') === true);
    expect(h.state(id)!.outlets[2]!.name).toBe('Router[2J exe');
    const taken = (await dispatch(
      h.core.handlersAs({ door: 'window', who: 'alice', role: 'admin' }),
      'reservations/take',
      {
        target: { kind: 'outlet', controllerId: id, outlet: 3 },
        reason: 'flashing\nfirmware\u001b[2J \u202Edone',
        durationMs: 3_600_000,
      },
    )) as Result<Reservation>;
    if (!taken.ok) throw new Error(taken.error.message);
    expect(taken.value.reason).toBe('flashing firmware[2J done');
    const bob: Caller = { door: 'pdudaemon-tcp', who: 'pdudaemon client 127.0.0.1', role: 'operator' };
    const refused = (await dispatch(h.core.handlersAs(bob), 'outlets/set', {
      controllerId: id,
      outlets: [3],
      on: true,
    })) as Result<unknown>;
    if (refused.ok) throw new Error('expected RESERVED');
    expect(refused.error.message).toMatch(
      /^Outlet 3 \(Router\[2J exe\) on Bench A is reserved by alice until/,
    );
    expect(unsafe(refused.error.message)).toBe(false);
    for (const entry of await h.ok<{ action: string; outletName?: string | null }[]>('activity/list', {})) {
      expect(unsafe(entry.action)).toBe(false);
      expect(unsafe(entry.outletName ?? '')).toBe(false);
    }
  });
});
