/**
 * A saved controller's alias (issue 15: pdudaemon's `hostname`): one word, unique among every
 * controller's names and aliases (case-insensitive), kept in the saved file, removable.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ControllerSummary } from '../../../src-preload/contract';
import { readControllers } from '../../../src-main/core/saved/registry-records';
import { addController, cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

describe('controller aliases', () => {
  it('are saved, changed and removed, and must be unique among names and aliases', async () => {
    const [a, b] = [await emulator(), await emulator()];
    const h = newCore();
    const added = await h.ok<ControllerSummary>('controllers/add', {
      url: a.url,
      name: 'Bench A',
      alias: 'bench-a',
      auth: { kind: 'digest', user: 'admin', password: '1234' },
    });
    expect(added.alias).toBe('bench-a');
    const cb = await addController(h, b, { name: 'Bench B' });

    const taken = await h.call('controllers/update', { id: cb.id, alias: 'BENCH-A' });
    expect(taken).toMatchObject({
      ok: false,
      error: {
        code: 'BAD_INPUT',
        message: 'The alias "BENCH-A" is already the alias of "Bench A": choose another alias.',
      },
    });
    const aName = await h.call('controllers/update', { id: cb.id, alias: 'bench' });
    expect(aName).toMatchObject({ ok: true });
    const nameOfAlias = await h.call('controllers/update', { id: added.id, name: 'BENCH' });
    expect(nameOfAlias).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: '"bench" is the alias of "Bench B": choose another name.' },
    });
    const spaced = await h.call('controllers/update', { id: cb.id, alias: 'bench b' });
    expect(spaced).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringMatching(/alias may not contain spaces/) },
    });

    const saved = h.store.get<ControllerSummary[]>('controllers', []);
    expect(saved.map((c) => c.alias)).toEqual(['bench-a', 'bench']);
    const removed = await h.ok<ControllerSummary>('controllers/update', { id: cb.id, alias: null });
    expect(removed.alias).toBeUndefined();
    expect(h.store.get<ControllerSummary[]>('controllers', [])[1]).not.toHaveProperty('alias');
  });

  it("drops an alias in an edited file that is another controller's name, keeping the controller", () => {
    const problems: string[] = [];
    const base = { url: 'http://127.0.0.1:1', auth: 'digest', user: 'admin' };
    const list = readControllers(
      [
        { ...base, id: 'c1', name: 'Bench A', alias: 'rack' },
        { ...base, id: 'c2', name: 'Rack', url: 'http://127.0.0.1:2', alias: 'bench-b' },
      ],
      (p) => problems.push(p),
    );
    expect(list.map((c) => [c.name, c.alias])).toEqual([
      ['Bench A', undefined],
      ['Rack', 'bench-b'],
    ]);
    expect(problems).toEqual([
      'saved controller "Bench A": its alias is another controller\'s name or alias; ignoring the alias',
    ]);
  });
});
