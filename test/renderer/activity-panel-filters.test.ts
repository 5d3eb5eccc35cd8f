/** The Activity panel answers "who did what to the Router" (issue 16 item 12): names, batches, filters. */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import ActivityPanel from '../../src-renderer/lib/panels/ActivityPanel.svelte';
import { activityRows, queryFilter } from '../../src-renderer/lib/state/activity-feed.svelte';
import { TestBackend } from './test-backend';

const T0 = new Date(2026, 10, 24, 9, 0).getTime();
const NAMES = ['Switch', 'PSU', 'Router', 'Fan', 'Lamp', 'Camera', 'Hub', 'NAS'];

function entry(id: number, patch: Partial<ActivityEntry>): ActivityEntry {
  return {
    id,
    time: T0,
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

/** Newest first: bob switched the Router off at 10:00 after alice's all on at 9:00 (one batch of 8). */
function log(): ActivityEntry[] {
  const allOn = NAMES.map((name, i) => entry(i + 1, { outlet: i + 1, outletName: name, batch: 1 }));
  const off = entry(9, {
    time: T0 + 3_600_000,
    outlet: 3,
    outletName: 'Router',
    action: 'off',
    source: 'cli',
    who: 'bob',
    batch: 9,
  });
  const script = entry(10, {
    time: T0 + 7_200_000,
    controllerId: 'bench',
    controllerName: 'Bench',
    outlet: 2,
    outletName: 'Lamp',
    action: 'off (temporary)',
    source: 'script',
    who: 'flash_a_light (started by alice)',
    result: 'observed',
    batch: 10,
  });
  return [script, off, ...allOn.reverse()];
}

const rowsOf = () =>
  within(screen.getByRole('list', { name: 'Activity, newest first' })).getAllByRole('listitem');

test('an all on over 8 outlets is one row that opens to its outlets, named with their numbers', async () => {
  const user = userEvent.setup();
  render(ActivityPanel, { entries: log(), height: 600 });
  expect(rowsOf()).toHaveLength(3);
  const batch = screen.getByRole('button', { name: /Rack 7, 8 outlets/ });
  expect(batch).toHaveAttribute('aria-expanded', 'false');
  expect(rowsOf()[1]).toHaveTextContent('Rack 7, Router (3) off by bob, CLI');
  await user.click(batch);
  expect(batch).toHaveAttribute('aria-expanded', 'true');
  const rows = rowsOf();
  expect(rows).toHaveLength(11);
  // In the order the outlets were switched, under the batch.
  expect(rows.slice(3).map((r) => r.querySelector('.who')!.textContent!.trim())).toEqual(
    NAMES.map((name, i) => `${name} (${i + 1})`),
  );
  await user.click(batch);
  expect(rowsOf()).toHaveLength(3);
  // Focus stays on the button that was pressed.
  expect(batch).toHaveFocus();
});

test('filters by outlet name or number, who, controller and time', async () => {
  const user = userEvent.setup();
  render(ActivityPanel, { entries: log(), height: 600 });
  const status = screen.getByRole('status');
  await user.type(screen.getByRole('searchbox', { name: 'Outlet' }), 'rout');
  expect(status).toHaveTextContent('2 entries');
  expect(rowsOf().map((r) => r.querySelector('.what')!.textContent)).toEqual(['off', 'on']);
  await user.selectOptions(screen.getByRole('combobox', { name: 'Who' }), 'bob, CLI');
  expect(status).toHaveTextContent('1 entry');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Who' }), 'Anyone');
  await user.clear(screen.getByRole('searchbox', { name: 'Outlet' }));
  await user.type(screen.getByRole('searchbox', { name: 'Outlet' }), '2');
  expect(status).toHaveTextContent('2 entries');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Controller' }), 'Bench');
  expect(status).toHaveTextContent('1 entry');
  expect(rowsOf()[0]).toHaveTextContent('by flash_a_light (started by alice), script');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Controller' }), 'Every controller');
  await user.clear(screen.getByRole('searchbox', { name: 'Outlet' }));
  // From 9:30 to 10:00 (the whole minute): only bob's off.
  await user.type(screen.getByLabelText('From'), '2026-11-24T09:30');
  await user.type(screen.getByLabelText('To'), '2026-11-24T10:00');
  expect(status).toHaveTextContent('1 entry');
  expect(rowsOf()[0]).toHaveTextContent('by bob, CLI');
});

test('the export asks the Core for what the filters select', () => {
  expect(queryFilter({ outlet: 'Router', actor: 'cli\u0000bob', since: 5, until: 9 })).toEqual({
    outletName: 'Router',
    door: 'cli',
    who: 'bob',
    since: 5,
    until: 9,
  });
  expect(queryFilter({ outlet: ' 3 ', controllerId: 'rack-7' })).toEqual({
    outlet: 3,
    controllerId: 'rack-7',
  });
});

test('a batch split from its other entries by a filter is shown as what is left', () => {
  const rows = activityRows(
    log().filter((e) => e.outlet === 3),
    new Set(),
  );
  expect(rows.map((r) => r.kind)).toEqual(['entry', 'entry']);
});

test('a group run over two controllers is one row; its outlets name their controllers', async () => {
  const user = userEvent.setup();
  const run = [
    entry(3, {
      controllerId: 'rack-7',
      controllerName: 'Rack 7',
      outlet: 6,
      outletName: 'Test load',
      source: 'group',
      batch: 1,
    }),
    entry(2, {
      controllerId: 'bench',
      controllerName: 'Bench A',
      outlet: 4,
      outletName: 'Scope',
      source: 'group',
      batch: 1,
    }),
    entry(1, {
      controllerId: 'bench',
      controllerName: 'Bench A',
      outlet: 3,
      outletName: 'Lamp',
      source: 'group',
      batch: 1,
    }),
  ];
  render(ActivityPanel, { entries: run, height: 400 });
  const batch = screen.getByRole('button', { name: /Bench A, Rack 7, 3 outlets/ });
  await user.click(batch);
  expect(
    rowsOf()
      .slice(1)
      .map((r) => r.querySelector('.who')!.textContent!.trim()),
  ).toEqual(['Bench A, Lamp (3)', 'Bench A, Scope (4)', 'Rack 7, Test load (6)']);
});

test('a range that starts before the newest entries the window holds is read from the lab store', async () => {
  const user = userEvent.setup();
  const backend = new TestBackend();
  // A year ago, long out of the window's feed: only the Core's store has it.
  const yearAgo = entry(3, {
    time: T0 - 365 * 86_400_000,
    outlet: 3,
    outletName: 'Router',
    action: 'cycle',
    source: 'json-api',
    who: 'ci-runner',
  });
  backend.answer('activity/list', async () => ({ ok: true, value: [yearAgo] }));
  render(ActivityPanel, { entries: log(), height: 600, backend: backend.api });
  expect(rowsOf().map((row) => row.textContent)).not.toContainEqual(expect.stringContaining('ci-runner'));
  expect(backend.callsOf('activity/list')).toEqual([]);
  const day = new Date(yearAgo.time);
  const local = (d: Date, hh: string) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}T${hh}`;
  await user.type(screen.getByLabelText('From'), local(day, '00:00'));
  await user.type(screen.getByLabelText('To'), local(day, '23:59'));
  await expect
    .poll(() => rowsOf().map((row) => row.textContent))
    .toEqual([expect.stringContaining('ci-runner')]);
  expect(backend.callsOf('activity/list').at(-1)).toEqual({
    since: new Date(local(day, '00:00')).getTime(),
    until: new Date(local(day, '23:59')).getTime() + 59_999,
    limit: 10_000,
  });
});
