import { fireEvent, render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import ActivityPanel from '../../src-renderer/lib/panels/ActivityPanel.svelte';

/** 10,000 entries, newest first, across two controllers. */
function entries(count = 10_000): ActivityEntry[] {
  const start = Date.UTC(2025, 4, 1, 8);
  return Array.from({ length: count }, (_, i) => {
    const id = count - i;
    const failed = id % 97 === 0;
    return {
      id,
      time: start + id * 1000,
      controllerId: id % 2 ? 'bench-a' : 'bench-b',
      controllerName: id % 2 ? 'Bench A' : 'Bench B',
      outlet: (id % 8) + 1,
      action: `entry ${id} ${id % 3 ? 'on' : 'off'}`,
      source: id % 5 ? 'window' : 'cli',
      who: id % 5 ? 'alice' : 'bob',
      result: failed ? 'error' : 'ok',
      error: failed ? { code: 'LOCKED', message: `Outlet ${(id % 8) + 1} is locked.` } : null,
    };
  });
}

test('an entry says who did it and through which door, and the filter finds it by that', async () => {
  const user = userEvent.setup();
  render(ActivityPanel, { entries: entries(20), height: 340 });
  const list = screen.getByRole('list', { name: 'Activity, newest first' });
  expect(within(list).getAllByRole('listitem')[0]).toHaveTextContent('by bob, CLI');
  await user.type(screen.getByRole('searchbox', { name: 'Filter' }), 'bob');
  const rows = within(list).getAllByRole('listitem');
  expect(rows.map((r) => r.textContent)).toHaveLength(4);
  for (const row of rows) expect(row).toHaveTextContent('by bob, CLI');
});

test('10,000 entries render only the rows in view', () => {
  render(ActivityPanel, { entries: entries(), height: 340 });
  const list = screen.getByRole('list', { name: 'Activity, newest first' });
  const rows = within(list).getAllByRole('listitem');
  // 340 px / 34 px = 10 visible rows, plus a few above and below.
  expect(rows.length).toBeLessThanOrEqual(20);
  expect(rows[0]).toHaveTextContent('entry 10000');
  expect(rows[0]).toHaveAttribute('aria-setsize', '10000');
  expect(rows[0]).toHaveAttribute('aria-posinset', '1');
  expect(screen.getByRole('status')).toHaveTextContent('10000 entries');
});

test('scrolling shows the entries at that position, still only a window of them', async () => {
  render(ActivityPanel, { entries: entries(), height: 340 });
  const list = screen.getByRole('list', { name: 'Activity, newest first' });
  const viewport = list.parentElement!;
  viewport.scrollTop = 5000 * 34;
  await fireEvent.scroll(viewport);
  const rows = within(list).getAllByRole('listitem');
  expect(rows.length).toBeLessThanOrEqual(24);
  const positions = rows.map((r) => Number(r.getAttribute('aria-posinset')));
  expect(positions).toContain(5001);
  expect(within(list).getByText('entry 5000 on')).toBeInTheDocument();
  expect(within(list).queryByText('entry 10000 on')).toBeNull();
});

test('a failed entry shows its error in words; filters narrow the list', async () => {
  const user = userEvent.setup();
  render(ActivityPanel, { entries: entries(300), controllerId: 'bench-a', height: 340 });
  // Only Bench A's (odd ids) by default.
  expect(screen.getByRole('status')).toHaveTextContent('150 entries');
  await user.selectOptions(screen.getByRole('combobox', { name: 'Controller' }), 'Every controller');
  expect(screen.getByRole('status')).toHaveTextContent('300 entries');
  await user.type(screen.getByRole('searchbox', { name: 'Filter' }), 'locked');
  expect(screen.getByRole('status')).toHaveTextContent('3 entries');
  expect(screen.getAllByRole('listitem')[0]).toHaveTextContent(
    'entry 291 off by alice, window failed: Outlet 4 is locked.',
  );
});

test('a refusal repeated by one client shows once, with how many times and when last', () => {
  const [first] = entries(1);
  const refused: ActivityEntry = {
    ...first!,
    action: 'refused',
    source: 'pdudaemon-tcp',
    who: 'pdudaemon client 127.0.0.1',
    result: 'error',
    error: { code: 'RESERVED', message: 'Outlet 3 is reserved by alice.' },
    count: 20_100,
    lastTime: Date.UTC(2025, 4, 1, 8, 12, 0),
  };
  render(ActivityPanel, { entries: [refused], height: 340 });
  const [row] = within(screen.getByRole('list', { name: 'Activity, newest first' })).getAllByRole('listitem');
  expect(row).toHaveTextContent(/refused \(×20100, last \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\)/);
});
