/**
 * A saved controller's tags (issue 16): where it is and what it is for, used by the sidebar, the
 * Overview's filters and the CSV import. Trimmed, de-duplicated (any case), replaced whole, kept in the
 * saved file; an edited file's bad tags are dropped one by one, never the controller.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ControllerSummary } from '../../../src-preload/contract';
import { readControllers } from '../../../src-main/core/saved/registry-records';
import { addController, cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

describe('controller tags', () => {
  it('are saved on add, replaced and removed by update, and refused when malformed', async () => {
    const a = await emulator();
    const h = newCore();
    const added = await h.ok<ControllerSummary>('controllers/add', {
      url: a.url,
      name: 'Bench A',
      tags: [' rack 7 ', 'bench', 'Bench'],
      auth: { kind: 'digest', user: 'admin', password: '1234' },
    });
    expect(added.tags).toEqual(['rack 7', 'bench']);
    expect(h.store.get<ControllerSummary[]>('controllers', [])[0]!.tags).toEqual(['rack 7', 'bench']);

    const comma = await h.call('controllers/update', { id: added.id, tags: ['rack 7, bench'] });
    expect(comma).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringMatching(/may not contain commas or semicolons/) },
    });
    expect(h.store.get<ControllerSummary[]>('controllers', [])[0]!.tags).toEqual(['rack 7', 'bench']);

    const replaced = await h.ok<ControllerSummary>('controllers/update', { id: added.id, tags: ['ci'] });
    expect(replaced.tags).toEqual(['ci']);
    const cleared = await h.ok<ControllerSummary>('controllers/update', { id: added.id, tags: [] });
    expect(cleared.tags).toBeUndefined();
    expect(h.store.get<ControllerSummary[]>('controllers', [])[0]).not.toHaveProperty('tags');
  });

  it('keeps tags untouched when an update leaves them out', async () => {
    const h = newCore();
    const c = await addController(h, await emulator(), { name: 'Bench B' });
    await h.ok('controllers/update', { id: c.id, tags: ['lab 2'] });
    const renamed = await h.ok<ControllerSummary>('controllers/update', { id: c.id, name: 'Bench C' });
    expect(renamed.tags).toEqual(['lab 2']);
  });

  it("drops an edited file's unusable tags, keeping the controller and its good tags", () => {
    const problems: string[] = [];
    const list = readControllers(
      [
        {
          id: 'c1',
          name: 'Bench A',
          url: 'http://127.0.0.1:1',
          auth: 'digest',
          user: 'admin',
          tags: ['rack 7', 42, 'a;b', '', 'RACK 7', 'bench'],
        },
        { id: 'c2', name: 'Bench B', url: 'http://127.0.0.1:2', auth: 'digest', user: 'admin', tags: 'x' },
      ],
      (p) => problems.push(p),
    );
    expect(list.map((c) => c.tags)).toEqual([['rack 7', 'bench'], undefined]);
    expect(list).toHaveLength(2);
  });
});
