/**
 * The Activity panel's controller filter offers the lab service's own entries (sign-ins, accounts,
 * refused calls: controller id '') as a choice of their own, apart from "Every controller": picking it
 * shows only them, and asks the Core for them (controller id '') in the export and a range read from the
 * lab store.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import ActivityPanel from '../../src-renderer/lib/panels/ActivityPanel.svelte';
import { LAB_ENTRIES, matchesQuery, queryFilter } from '../../src-renderer/lib/state/activity-feed.svelte';
import { TestBackend } from './test-backend';

const T0 = new Date(2026, 10, 27, 9, 0).getTime();

function entry(id: number, patch: Partial<ActivityEntry>): ActivityEntry {
  return {
    id,
    time: T0 + id * 60_000,
    controllerId: 'rack-7',
    controllerName: 'Rack 7',
    outlet: 1,
    action: 'on',
    source: 'window',
    who: 'alice',
    result: 'ok',
    error: null,
    ...patch,
  };
}

const lab = (id: number, action: string, who: string): ActivityEntry =>
  entry(id, {
    controllerId: '',
    controllerName: 'the lab service',
    outlet: null,
    action,
    who,
    source: 'json-api',
  });

/** Newest first. */
const log = (): ActivityEntry[] => [
  lab(4, 'tried to see the accounts', 'bob'),
  entry(3, { outlet: 2 }),
  lab(2, 'signed in from 10.0.0.5', 'bob'),
  entry(1, {}),
];

const rowsOf = () =>
  within(screen.getByRole('list', { name: 'Activity, newest first' })).getAllByRole('listitem');

test("the lab service's entries are a choice of their own, apart from every controller", async () => {
  const user = userEvent.setup();
  render(ActivityPanel, { entries: log(), height: 600 });
  const controller = screen.getByRole('combobox', { name: 'Controller' });
  expect(
    within(controller)
      .getAllByRole('option')
      .map((o) => o.textContent),
  ).toEqual(['Every controller', 'Rack 7', 'The lab service']);
  const status = screen.getByRole('status');
  expect(status).toHaveTextContent('4 entries');
  await user.selectOptions(controller, 'The lab service');
  expect(status).toHaveTextContent('2 entries');
  expect(rowsOf().map((r) => r.querySelector('.what')!.textContent)).toEqual([
    'tried to see the accounts',
    'signed in from 10.0.0.5',
  ]);
  await user.selectOptions(controller, 'Rack 7');
  expect(status).toHaveTextContent('2 entries');
  await user.selectOptions(controller, 'Every controller');
  expect(status).toHaveTextContent('4 entries');
});

test('picking them asks the Core for the controller id ""', async () => {
  expect(queryFilter({ controllerId: LAB_ENTRIES, since: 5 })).toEqual({ controllerId: '', since: 5 });
  expect(queryFilter({ controllerId: '' })).toEqual({});
  expect(
    log()
      .filter((e) => matchesQuery(e, { controllerId: LAB_ENTRIES }))
      .map((e) => e.id),
  ).toEqual([4, 2]);

  const user = userEvent.setup();
  const backend = new TestBackend();
  backend.answer('activity/list', async () => ({ ok: true, value: [lab(0, 'added account bob', 'root')] }));
  backend.answer('activity/export', async () => ({ ok: true, value: { filename: 'a.csv', text: '' } }));
  render(ActivityPanel, { entries: log(), height: 600, backend: backend.api });
  await user.selectOptions(screen.getByRole('combobox', { name: 'Controller' }), 'The lab service');
  // A range reaching before the window's oldest entry is read from the Core's store.
  const day = new Date(T0);
  const date = `${day.getFullYear()}-${String(day.getMonth() + 1).padStart(2, '0')}-${String(day.getDate()).padStart(2, '0')}`;
  await user.type(screen.getByLabelText('From'), `${date}T08:00`);
  await expect.poll(() => backend.callsOf('activity/list').at(-1)).toMatchObject({ controllerId: '' });
  await expect
    .poll(() => rowsOf().map((r) => r.querySelector('.what')!.textContent))
    .toEqual(['added account bob']);
  await user.click(screen.getByRole('button', { name: /Export CSV/ }));
  expect(backend.callsOf('activity/export').at(-1)).toMatchObject({ controllerId: '', format: 'csv' });
});
