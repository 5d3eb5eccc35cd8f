import { fireEvent, render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import Sidebar from '../../src-renderer/lib/components/Sidebar.svelte';
import type { OutletHit, SidebarItem } from '../../src-renderer/lib/sidebar-list';

function item(overrides: Partial<SidebarItem> & Pick<SidebarItem, 'id' | 'name'>): SidebarItem {
  return {
    url: `http://192.168.0.${overrides.id.length + 10}`,
    alias: null,
    colour: '#3b82f6',
    status: 'online',
    tags: [],
    demo: false,
    nextAttemptAt: null,
    ...overrides,
  };
}

const controllers: SidebarItem[] = [
  item({ id: 'a', name: 'Bench A', tags: ['bench'] }),
  item({ id: 'b', name: 'Bench B', status: 'auth_failed', tags: ['bench', 'ci'], url: 'http://10.0.0.7' }),
  item({ id: 'c', name: 'Rack C', status: 'rebooting', demo: true, tags: ['rack 7'] }),
  item({ id: 'd', name: 'Attic', status: 'offline', nextAttemptAt: Date.now() + 8_000 }),
];

const HITS: OutletHit[] = [
  { controllerId: 'a', controllerName: 'Bench A', outlet: 1, name: 'Router' },
  { controllerId: 'c', controllerName: 'Rack C', outlet: 3, name: 'Router 2' },
];

/** Renders the list the way App does: the selection follows onselect. */
function renderSidebar(selected: string | null = null) {
  const state = { selected, orders: [] as string[][], opened: [] as OutletHit[] };
  const view = render(Sidebar, {
    controllers,
    selected,
    onselect: (id: string) => {
      state.selected = id;
      void view.rerender({ selected: id });
    },
    onreorder: (ids: string[]) => void state.orders.push(ids),
    findOutlets: (query: string) => HITS.filter((h) => h.name.toLowerCase().includes(query.toLowerCase())),
    onopenoutlet: (hit: OutletHit) => void state.opened.push(hit),
  });
  return state;
}

const rows = () => within(screen.getByRole('tablist', { name: 'Controllers' })).queryAllByRole('tab');
/** The ids of the rows shown, top to bottom. */
const rowIds = () => rows().map((t) => t.dataset.tab);

test('a row per controller: name, status words, retrying time when offline, tags', () => {
  renderSidebar('b');
  expect(screen.getByRole('tablist', { name: 'Controllers' })).toHaveAttribute(
    'aria-orientation',
    'vertical',
  );
  const [a, b, c, d] = rows();
  expect(a).toHaveAccessibleName('Bench A online tags: bench');
  expect(b).toHaveAccessibleName('Bench B auth problem tags: bench, ci');
  expect(c).toHaveAccessibleName('Rack C rebooting tags: rack 7 demo');
  expect(d).toHaveAccessibleName(/^Attic offline · retrying in [78] s$/);
  expect(rows()).toHaveLength(4);
  expect(screen.getByRole('tab', { name: /Bench B/ })).toHaveAttribute('aria-selected', 'true');
});

test('the filter matches name, address, tag and status; comma-separated terms must all match', async () => {
  const user = userEvent.setup();
  renderSidebar();
  const filter = screen.getByRole('searchbox', { name: 'Filter controllers and outlets' });
  await user.type(filter, 'bench');
  expect(rowIds()).toEqual(['a', 'b']);
  expect(screen.getByText('2 of 4 controllers')).toBeInTheDocument();
  await user.type(filter, ', ci');
  expect(rowIds()).toEqual(['b']);
  await user.clear(filter);
  await user.type(filter, '10.0.0.7');
  expect(rowIds()).toEqual(['b']);
  await user.clear(filter);
  await user.type(filter, 'offline');
  expect(rowIds()).toEqual(['d']);
  await user.clear(filter);
  await user.type(filter, 'rack 7');
  expect(rowIds()).toEqual(['c']);
  await user.clear(filter);
  await user.type(filter, 'nothing-like-this');
  expect(rowIds()).toEqual([]);
  expect(screen.getByText('No controller or outlet matches “nothing-like-this”.')).toBeInTheDocument();
});

test('outlets whose names match are listed under their controller and open it', async () => {
  const user = userEvent.setup();
  const state = renderSidebar();
  await user.type(screen.getByRole('searchbox'), 'router');
  const hits = screen.getByRole('region', { name: 'Outlets matching “router”' });
  expect(
    within(hits)
      .getAllByRole('heading', { level: 3 })
      .map((h) => h.textContent),
  ).toEqual(['Bench A', 'Rack C']);
  await user.click(within(hits).getByRole('button', { name: 'Router 2 · outlet 3 on Rack C' }));
  expect(state.opened).toEqual([HITS[1]]);
});

test('sort by name, by problems first and by tag; drag-reorder only in the saved order', async () => {
  const user = userEvent.setup();
  renderSidebar();
  const sort = screen.getByRole('combobox', { name: 'Sort' });
  const firstWords = () => screen.getAllByRole('tab').map((t) => t.querySelector('.name')?.textContent);
  await user.selectOptions(sort, 'Name');
  expect(firstWords()).toEqual(['Attic', 'Bench A', 'Bench B', 'Rack C']);
  await user.selectOptions(sort, 'Problems first');
  expect(firstWords()).toEqual(['Attic', 'Bench B', 'Rack C', 'Bench A']);
  await user.selectOptions(sort, 'Tag');
  expect(firstWords()).toEqual(['Bench A', 'Bench B', 'Rack C', 'Attic']);
  expect(screen.getByRole('tab', { name: /Bench A/ })).toHaveAttribute('draggable', 'false');
  await user.selectOptions(sort, 'Saved order');
  expect(firstWords()).toEqual(['Bench A', 'Bench B', 'Rack C', 'Attic']);
  expect(screen.getByRole('tab', { name: /Bench A/ })).toHaveAttribute('draggable', 'true');
});

test('arrows move the focus through the rows, Enter opens; one row is in the Tab order', async () => {
  const user = userEvent.setup();
  const state = renderSidebar(null);
  expect(
    screen
      .getAllByRole('tab')
      .filter((t) => t.tabIndex === 0)
      .map((t) => t.id),
  ).toEqual(['tab-a']);
  // From the filter, Down goes to the first row.
  await user.click(screen.getByRole('searchbox'));
  await user.keyboard('{ArrowDown}');
  expect(screen.getByRole('tab', { name: /Bench A/ })).toHaveFocus();
  await user.keyboard('{ArrowDown}{ArrowDown}');
  expect(screen.getByRole('tab', { name: /Rack C/ })).toHaveFocus();
  expect(state.selected).toBeNull();
  await user.keyboard('{Enter}');
  expect(state.selected).toBe('c');
  expect(screen.getByRole('tab', { name: /Rack C/ })).toHaveAttribute('aria-selected', 'true');
  await user.keyboard('{End}');
  expect(screen.getByRole('tab', { name: /Attic/ })).toHaveFocus();
  await user.keyboard('{ArrowDown}');
  expect(screen.getByRole('tab', { name: /Bench A/ })).toHaveFocus();
  await user.keyboard('{ArrowUp} ');
  expect(state.selected).toBe('d');
});

test('Enter in the filter opens the first match', async () => {
  const user = userEvent.setup();
  const state = renderSidebar();
  await user.type(screen.getByRole('searchbox'), 'rack{Enter}');
  expect(state.selected).toBe('c');
});

test('Alt+Shift+Up/Down move a controller in the saved order and announce it', async () => {
  const user = userEvent.setup();
  const state = renderSidebar('a');
  screen.getByRole('tab', { name: /Bench A/ }).focus();
  await user.keyboard('{Alt>}{Shift>}{ArrowDown}{/Shift}{/Alt}');
  expect(state.orders).toEqual([['b', 'a', 'c', 'd']]);
  expect(screen.getByText('Bench A moved to position 2 of 4.')).toBeInTheDocument();
});

test('dragging a row onto another reorders', async () => {
  const state = renderSidebar();
  const data = new Map<string, string>();
  const dataTransfer = {
    setData: (k: string, v: string) => data.set(k, v),
    getData: (k: string) => data.get(k) ?? '',
  };
  await fireEvent.dragStart(screen.getByRole('tab', { name: /Rack C/ }), { dataTransfer });
  await fireEvent.dragOver(screen.getByRole('tab', { name: /Bench A/ }), { dataTransfer });
  await fireEvent.drop(screen.getByRole('tab', { name: /Bench A/ }), { dataTransfer });
  expect(state.orders).toEqual([['c', 'a', 'b', 'd']]);
});
