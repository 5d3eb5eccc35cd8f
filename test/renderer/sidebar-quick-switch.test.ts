import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import App from '../../src-renderer/App.svelte';
import { switchResults } from '../../src-renderer/lib/quick-switch';
import { controllerState, outlet, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

const benchA = summary({ tags: ['bench'] });
const rack = summary({ id: 'rack', name: 'Rack 2', url: 'http://192.168.0.102', order: 1, tags: ['rack 7'] });
const rackState = controllerState({
  id: 'rack',
  outlets: [1, 2, 3, 4, 5, 6, 7, 8].map((n) => outlet(n, { name: n === 5 ? 'Build router' : `Node ${n}` })),
});
const groups = [{ id: 'g1', name: 'Routers', members: [{ controllerId: 'rack', outlet: 5 }] }];

test('controllers, groups and outlets by name; best matches first; comma-separated terms must all match', () => {
  const states = { 'bench-a': controllerState(), rack: rackState };
  const labels = (q: string) =>
    switchResults(q, [benchA, rack], states, groups).map((r) => `${r.kind}: ${r.label}`);
  expect(labels('router')).toEqual([
    'Outlet: Router on Bench A · outlet 1',
    'Group: Routers',
    'Outlet: Build router on Rack 2 · outlet 5',
  ]);
  expect(labels('rack 7')).toEqual(['Controller: Rack 2']);
  expect(labels('rack, 2')).toEqual(['Controller: Rack 2']);
  expect(labels('build rout')).toEqual(['Outlet: Build router on Rack 2 · outlet 5']);
  expect(labels('')).toEqual(['Controller: Bench A', 'Controller: Rack 2', 'Group: Routers']);
  expect(labels('nothing')).toEqual([]);
});

let backend: TestBackend;

beforeEach(() => {
  backend = new TestBackend();
  (window as { plugboard?: unknown }).plugboard = backend.api;
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({ controllers: [benchA, rack], states: [controllerState(), rackState], groups }),
  }));
});

afterEach(() => {
  delete (window as { plugboard?: unknown }).plugboard;
});

test('Ctrl+K finds an outlet by name on another controller; Enter opens it focused on that row', async () => {
  const user = userEvent.setup();
  render(App);
  await screen.findByRole('tab', { name: /^Rack 2/ });
  await user.keyboard('{Control>}k{/Control}');
  const box = screen.getByRole('combobox', { name: 'Go to a controller, outlet or group' });
  expect(box).toHaveFocus();
  await user.type(box, 'build');
  const list = screen.getByRole('listbox', { name: 'Matches' });
  const option = within(list).getByRole('option', { name: /Build router on Rack 2 · outlet 5/ });
  expect(option).toHaveAttribute('aria-selected', 'true');
  expect(box).toHaveAttribute('aria-activedescendant', option.id);
  await user.keyboard('{Enter}');
  expect(screen.getByRole('tab', { name: /^Rack 2/ })).toHaveAttribute('aria-selected', 'true');
  await waitFor(() =>
    expect(screen.getByRole('checkbox', { name: 'Select outlet 5 (Build router)' })).toHaveFocus(),
  );
  expect(screen.queryByRole('combobox', { name: 'Go to a controller, outlet or group' })).toBeNull();
});

test('the Go to button opens the switcher; arrows choose; a group opens the Overview at its card', async () => {
  const user = userEvent.setup();
  render(App);
  await screen.findByRole('tab', { name: /^Rack 2/ });
  await user.click(screen.getByRole('tab', { name: /^Bench A/ }));
  await user.click(screen.getByRole('button', { name: /Go to…/ }));
  await user.type(screen.getByRole('combobox', { name: 'Go to a controller, outlet or group' }), 'router');
  await user.keyboard('{ArrowDown}{Enter}');
  expect(screen.getByRole('button', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  await waitFor(() =>
    expect(document.activeElement).toContainElement(screen.getByRole('group', { name: 'Group Routers' })),
  );
});

test('the sidebar filter lists matching outlets under their controller; a click opens it there', async () => {
  const user = userEvent.setup();
  render(App);
  await screen.findByRole('tab', { name: /^Rack 2/ });
  await user.type(screen.getByRole('searchbox', { name: 'Filter controllers and outlets' }), 'node 3');
  const hits = screen.getByRole('region', { name: 'Outlets matching “node 3”' });
  await user.click(within(hits).getByRole('button', { name: 'Node 3 · outlet 3 on Rack 2' }));
  await waitFor(() =>
    expect(screen.getByRole('checkbox', { name: 'Select outlet 3 (Node 3)' })).toHaveFocus(),
  );
});

test('the controller list folds away and back', async () => {
  const user = userEvent.setup();
  render(App);
  const fold = screen.getByRole('button', { name: 'Controller list' });
  expect(fold).toHaveAttribute('aria-expanded', 'true');
  await user.click(fold);
  expect(screen.queryByRole('tablist', { name: 'Controllers' })).toBeNull();
  await user.click(fold);
  expect(screen.getByRole('tablist', { name: 'Controllers' })).toBeInTheDocument();
});
