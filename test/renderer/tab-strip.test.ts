import { fireEvent, render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import TabStrip from '../../src-renderer/lib/components/TabStrip.svelte';
import type { TabItem } from '../../src-renderer/lib/tabs';

const controllers: TabItem[] = [
  { id: 'a', name: 'Bench A', colour: '#3b82f6', status: 'online', demo: false },
  { id: 'b', name: 'Bench B', colour: '#10b981', status: 'auth_failed', demo: false },
  { id: 'c', name: 'Rack C', colour: '#f59e0b', status: 'rebooting', demo: true },
];

/** Renders the strip the way App does: selection follows onselect. */
function renderStrip(selected: string | null = null) {
  const state = { selected: selected as string | null, orders: [] as string[][] };
  const view = render(TabStrip, {
    controllers,
    selected,
    onselect: (id: string) => {
      state.selected = id;
      void view.rerender({ selected: id });
    },
    onreorder: (ids: string[]) => {
      state.orders.push(ids);
    },
  });
  return state;
}

test('a tab per controller and nothing else, named with its status for screen readers', () => {
  renderStrip('b');
  const tabs = screen.getAllByRole('tab');
  expect(screen.getByRole('tablist', { name: 'Controllers' })).toBeInTheDocument();
  expect(tabs.map((t) => t.textContent?.replace(/\s+/g, ' ').trim())).toEqual([
    'Bench A online',
    'Bench B auth problem',
    'Rack C rebooting demo',
  ]);
  expect(screen.getByRole('tab', { name: /Bench B/ })).toHaveAttribute('aria-selected', 'true');
});

test('with no controller open, the first tab is the one reached by Tab', async () => {
  const user = userEvent.setup();
  renderStrip(null);
  expect(screen.getAllByRole('tab').filter((t) => t.getAttribute('aria-selected') === 'true')).toEqual([]);
  await user.tab();
  expect(screen.getByRole('tab', { name: /Bench A/ })).toHaveFocus();
});

test('arrow keys, Home and End move the selection and the focus', async () => {
  const user = userEvent.setup();
  const state = renderStrip('a');
  await user.tab();
  expect(screen.getByRole('tab', { name: /Bench A/ })).toHaveFocus();
  await user.keyboard('{ArrowRight}');
  expect(state.selected).toBe('b');
  expect(screen.getByRole('tab', { name: /Bench B/ })).toHaveFocus();
  expect(screen.getByRole('tab', { name: /Bench B/ })).toHaveAttribute('aria-selected', 'true');
  await user.keyboard('{End}');
  expect(state.selected).toBe('c');
  await user.keyboard('{ArrowRight}');
  expect(state.selected).toBe('a');
  await user.keyboard('{ArrowLeft}{ArrowLeft}');
  expect(state.selected).toBe('b');
  expect(screen.getByRole('tab', { name: /Bench B/ })).toHaveFocus();
  await user.keyboard('{Home}');
  expect(screen.getByRole('tab', { name: /Bench A/ })).toHaveFocus();
});

test('only the selected tab is in the Tab order', () => {
  renderStrip('b');
  const tabbable = screen.getAllByRole('tab').filter((t) => t.tabIndex === 0);
  expect(tabbable.map((t) => t.id)).toEqual(['tab-b']);
});

test('Alt+Shift+arrows move a controller tab and announce it', async () => {
  const user = userEvent.setup();
  const state = renderStrip('a');
  screen.getByRole('tab', { name: /Bench A/ }).focus();
  await user.keyboard('{Alt>}{Shift>}{ArrowRight}{/Shift}{/Alt}');
  expect(state.orders).toEqual([['b', 'a', 'c']]);
  expect(screen.getByText('Bench A moved to position 2 of 3.')).toBeInTheDocument();
});

test('dragging a tab onto another reorders', async () => {
  const state = renderStrip();
  const data = new Map<string, string>();
  const dataTransfer = {
    setData: (k: string, v: string) => data.set(k, v),
    getData: (k: string) => data.get(k) ?? '',
  };
  await fireEvent.dragStart(screen.getByRole('tab', { name: /Rack C/ }), { dataTransfer });
  await fireEvent.dragOver(screen.getByRole('tab', { name: /Bench A/ }), { dataTransfer });
  await fireEvent.drop(screen.getByRole('tab', { name: /Bench A/ }), { dataTransfer });
  expect(state.orders).toEqual([['c', 'a', 'b']]);
});
