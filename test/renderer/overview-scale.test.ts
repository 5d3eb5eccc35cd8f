/**
 * Issue 16 item 8: the Overview at many controllers — problems first, filters (offline, on, locked,
 * critical, reserved, a tag) and a compact mode kept in the settings that renders only visible rows.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { DEFAULT_SETTINGS, type ControllerState, type ControllerSummary } from '../../src-preload/model';
import App from '../../src-renderer/App.svelte';
import { overviewItems, type OverviewItem } from '../../src-renderer/lib/overview-filter';
import { controllerState, outlet, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

let backend: TestBackend;

/** `count` controllers "Unit 1"…; every tenth is offline, units 1–5 are tagged "rack 7". */
function fleet(count: number) {
  const controllers: ControllerSummary[] = [];
  const states: ControllerState[] = [];
  for (let i = 1; i <= count; i++) {
    const id = `unit-${i}`;
    controllers.push(
      summary({ id, name: `Unit ${i}`, order: i - 1, ...(i <= 5 ? { tags: ['rack 7'] } : {}) }),
    );
    const offline = i % 10 === 0;
    const state = controllerState({
      id,
      status: offline ? 'offline' : 'online',
      problem: offline ? { code: 'UNREACHABLE' as const, message: `Unit ${i} does not answer.` } : null,
      lastUpdate: Date.now(),
    });
    if (i === 3) state.outlets[0] = outlet(1, { critical: true });
    states.push(state);
  }
  return { controllers, states };
}

function start(count: number, compact = false) {
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({ ...fleet(count), settings: { ...DEFAULT_SETTINGS, overviewCompact: compact } }),
  }));
  backend.answer('settings/set', (patch) => ({
    ok: true,
    value: { ...DEFAULT_SETTINGS, ...(patch as object) },
  }));
  render(App);
}

/** The names of the controllers whose outlets are on screen, in order. */
function shownNames(): string[] {
  return screen
    .getAllByRole('list', { name: /^Outlets of / })
    .map((list) => list.getAttribute('aria-label')!.replace('Outlets of ', ''));
}

beforeEach(() => {
  backend = new TestBackend();
  (window as { plugboard?: unknown }).plugboard = backend.api;
});
afterEach(() => delete (window as { plugboard?: unknown }).plugboard);

test('problems come first, then the tab order', () => {
  const { controllers, states } = fleet(12);
  const items: OverviewItem[] = controllers.map((summary, i) => ({
    summary,
    live: states[i],
    reserved: false,
    stale: summary.id === 'unit-4',
  }));
  const order = overviewItems(items, { filters: new Set(), tag: null }).map((i) => i.summary.name);
  expect(order.slice(0, 3)).toEqual(['Unit 10', 'Unit 4', 'Unit 1']);
  expect(order).toHaveLength(12);
  // "Not online" is the status: an online controller with an old last answer is sorted up, not filtered in.
  const offline = overviewItems(items, { filters: new Set(['offline']), tag: null });
  expect(offline.map((i) => i.summary.name)).toEqual(['Unit 10']);
});

test(
  'filters narrow the list, together with a tag; the count says how many are shown',
  { timeout: 30_000 },
  async () => {
    const user = userEvent.setup();
    start(20);
    await screen.findByRole('list', { name: 'Outlets of Unit 1' });
    expect(shownNames().slice(0, 2)).toEqual(['Unit 10', 'Unit 20']);
    const filters = screen.getByRole('group', { name: 'Filters' });
    await user.click(within(filters).getByRole('button', { name: 'Not online' }));
    expect(shownNames()).toEqual(['Unit 10', 'Unit 20']);
    expect(screen.getByText(/2 of 20 controllers/)).toBeInTheDocument();
    await user.click(within(filters).getByRole('button', { name: 'Not online' }));
    await user.click(within(filters).getByRole('button', { name: 'Critical outlets' }));
    expect(shownNames()).toEqual(['Unit 3']);
    await user.click(within(filters).getByRole('button', { name: 'Critical outlets' }));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Tag' }), 'rack 7');
    expect(shownNames()).toEqual(['Unit 1', 'Unit 2', 'Unit 3', 'Unit 4', 'Unit 5']);
  },
);

test(
  'compact mode is saved in the settings and renders only the rows in view',
  { timeout: 30_000 },
  async () => {
    const user = userEvent.setup();
    start(60);
    await screen.findByRole('list', { name: 'Outlets of Unit 1' });
    await user.click(screen.getByRole('checkbox', { name: 'Compact' }));
    expect(backend.callsOf('settings/set')).toEqual([{ overviewCompact: true }]);
    const list = await screen.findByRole('list', { name: 'Controllers' });
    // 60 controllers, but only a window's worth of rows (plus overscan) exist in the page.
    const rows = [...list.children];
    expect(rows.length).toBeGreaterThan(5);
    expect(rows.length).toBeLessThan(30);
    expect(rows[0]).toHaveAttribute('aria-setsize', '60');
    expect(shownNames()[0]).toBe('Unit 10');
  },
);
