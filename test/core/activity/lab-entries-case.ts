/**
 * The activity log's entries about the lab service itself (sign-ins, accounts, refused calls: controller
 * id '') asked for apart from every controller's, through the contract's `activity/list` and
 * `activity/export` on a Core over a lab store: the SQLite fast test and the PostgreSQL system test run
 * this case, each with its own store.
 */
import { expect } from 'vitest';
import type { ActivityEntry } from '../../../src-preload/model';
import type { LabRecords } from '../../../src-main/core/flows/lab-records';
import { FakeClock } from '../fake-clock';
import { addController, emulator, newCore } from '../harness';

export async function labEntriesApart(records: LabRecords): Promise<void> {
  const h = newCore({ records, clock: new FakeClock(Date.UTC(2026, 10, 27, 9)) });
  const bench = await addController(h, await emulator({ initialStates: Array(8).fill(false) }), {
    name: 'Bench A',
  });
  await h.ok('accounts/add', { name: 'ada', role: 'observer', scope: { kind: 'all' } });
  await h.ok('outlets/set', { controllerId: bench.id, outlets: [2], on: true });
  await h.core
    .handlersAs({ door: 'json-api', who: 'ada', role: 'observer' })
    ['accounts/list']({})
    .catch(() => null);
  const list = async (filter: object) =>
    (await h.ok<ActivityEntry[]>('activity/list', { ...filter, order: 'oldest' })).map((e) => [
      e.controllerName,
      e.action,
    ]);

  expect(await list({ controllerId: '' })).toEqual([
    ['the lab service', 'added account ada (observer, everywhere)'],
    ['the lab service', 'tried to see the accounts'],
  ]);
  expect(await list({ controllerId: bench.id })).toEqual([
    ['Bench A', 'added to Plugboard'],
    ['Bench A', 'on'],
  ]);
  expect(await list({ controllerId: '', who: 'ada' })).toEqual([
    ['the lab service', 'tried to see the accounts'],
  ]);
  expect(await list({})).toHaveLength(4);
  const exported = await h.ok<{ text: string }>('activity/export', { controllerId: '', format: 'jsonl' });
  expect(
    exported.text
      .trim()
      .split('\n')
      .map((line) => (JSON.parse(line) as ActivityEntry).action),
  ).toEqual(['added account ada (observer, everywhere)', 'tried to see the accounts']);
}
