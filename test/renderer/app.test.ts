import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import App from '../../src-renderer/App.svelte';
import { DEFAULT_SETTINGS } from '../../src-renderer/lib/state/app-state.svelte';
import { controllerState, outlet, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

let backend: TestBackend;

beforeEach(() => {
  backend = new TestBackend();
  (window as { plugboard?: unknown }).plugboard = backend.api;
});

afterEach(() => {
  delete (window as { plugboard?: unknown }).plugboard;
  delete document.documentElement.dataset.theme;
});

test('the shell: banner with the name and version, the controller tabs, add and demo', async () => {
  backend.answer('app/snapshot', () => ({ ok: true, value: snapshot() }));
  render(App);
  const banner = screen.getByRole('banner');
  expect(within(banner).getByRole('heading', { level: 1 })).toHaveTextContent(/^Plugboard$/);
  expect(await within(banner).findByText('v0.1.0')).toBeInTheDocument();
  const tablist = screen.getByRole('tablist', { name: 'Controllers' });
  expect(within(tablist).queryAllByRole('tab')).toEqual([]);
  expect(screen.getByRole('button', { name: 'Add controller' })).toBeInTheDocument();
  expect(screen.getByRole('button', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  expect(screen.getByRole('button', { name: 'Try the demo' })).toBeVisible();
});

test('without a snapshot the window still shows app/info and controllers/list, and says what failed', async () => {
  backend
    .answer('app/info', () => ({
      ok: true,
      value: { name: 'Plugboard', version: '0.1.0', shell: 'web', platform: 'linux' },
    }))
    .answer('controllers/list', () => ({
      ok: true,
      value: [summary(), summary({ id: 'b', name: 'Bench B', order: 1 })],
    }));
  render(App);
  expect(await screen.findByRole('tab', { name: /Bench B/ })).toBeInTheDocument();
  expect(screen.getByText('v0.1.0')).toBeInTheDocument();
  expect(screen.getByRole('alert')).toHaveTextContent('This part of Plugboard is not built yet.');
  expect(screen.getByRole('alert')).toHaveTextContent('Plugboard could not load everything for this window.');
});

test('controllers become tabs with live status; events keep them current', async () => {
  const user = userEvent.setup();
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({ controllers: [summary()], states: [controllerState()] }),
  }));
  render(App);
  const tab = await screen.findByRole('tab', { name: 'Bench A online' });
  await user.click(tab);
  expect(screen.getByRole('tabpanel', { name: 'Bench A online' })).toBeInTheDocument();
  expect(screen.getByRole('tabpanel', { name: 'Outlets' })).toBeInTheDocument();
  expect(
    screen
      .getAllByRole('switch', { name: /^Power of / })
      .filter((s) => s.getAttribute('aria-checked') === 'true'),
  ).toHaveLength(4);

  const changed = controllerState({
    status: 'offline',
    problem: { code: 'UNREACHABLE', message: 'Nothing answered at 192.168.0.100.' },
  });
  backend.emit('state/changed', changed);
  expect(await screen.findByRole('tab', { name: 'Bench A offline' })).toBeInTheDocument();
  expect(screen.getByText(/^Nothing answered at 192\.168\.0\.100\. Plugboard keeps trying\./)).toBeVisible();

  backend.emit('controllers/changed', [summary(), summary({ id: 'rack', name: 'Rack 2', order: 1 })]);
  expect(await screen.findByRole('tab', { name: 'Rack 2 connecting' })).toBeInTheDocument();
});

test('Ctrl+digit opens a controller; Ctrl+0 the overview', async () => {
  const user = userEvent.setup();
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({
      controllers: [summary(), summary({ id: 'b', name: 'Bench B', order: 1 })],
      states: [controllerState()],
    }),
  }));
  render(App);
  await screen.findByRole('tab', { name: /Bench B/ });
  await user.keyboard('{Control>}2{/Control}');
  expect(screen.getByRole('tab', { name: /Bench B/ })).toHaveAttribute('aria-selected', 'true');
  expect(screen.getByText('Connecting to Bench B…')).toBeVisible();
  await user.keyboard('{Control>}0{/Control}');
  expect(screen.getByRole('button', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
  expect(screen.getByRole('tab', { name: /Bench B/ })).toHaveAttribute('aria-selected', 'false');
  expect(screen.getByRole('region', { name: 'Overview' })).toBeInTheDocument();
});

test('the tray asking to confirm critical outlets opens a confirmation; confirming switches them off', async () => {
  const user = userEvent.setup();
  const live = controllerState();
  live.outlets[1] = outlet(2, { critical: true, physicalState: true, state: true, transientState: true });
  backend
    .answer('app/snapshot', () => ({
      ok: true,
      value: snapshot({ controllers: [summary()], states: [live] }),
    }))
    .answer('outlets/set', () => ({ ok: true, value: { requested: [2], failed: [] } }));
  render(App);
  await screen.findByRole('tab', { name: /Bench A/ });
  backend.emit('ui/confirm', {
    controllerId: 'bench-a',
    outlets: [2],
    action: 'off',
    reason: 'Tray: “Server off” was clicked.',
  });
  const dialog = await screen.findByRole('dialog', {
    name: 'The tray asks to switch off critical outlets on Bench A',
  });
  expect(dialog).toHaveAccessibleDescription('Tray: “Server off” was clicked.');
  expect(within(dialog).getByRole('listitem')).toHaveTextContent('outlet 2 (Server)');
  await user.click(within(dialog).getByRole('checkbox'));
  await user.click(within(dialog).getByRole('button', { name: 'Switch off' }));
  expect(backend.callsOf('outlets/set')).toEqual([
    // The person confirmed in the window: the confirmation goes with the call.
    { controllerId: 'bench-a', outlets: [2], on: false, transient: false, confirmCritical: true },
  ]);
});

test('the theme setting overrides the system theme', async () => {
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({ settings: { ...DEFAULT_SETTINGS, theme: 'dark' } }),
  }));
  render(App);
  await waitFor(() => expect(document.documentElement.dataset.theme).toBe('dark'));
  backend.emit('settings/changed', { ...DEFAULT_SETTINGS, theme: 'light' });
  await waitFor(() => expect(document.documentElement.dataset.theme).toBe('light'));
});

test('Try the demo starts the demo and opens its first controller', async () => {
  const user = userEvent.setup();
  const demo = summary({ id: 'demo-1', name: 'Demo bench', demo: true });
  backend
    .answer('app/snapshot', () => ({ ok: true, value: snapshot() }))
    .answer('demo/start', () => ({ ok: true, value: [demo] }));
  render(App);
  await user.click(await screen.findByRole('button', { name: 'Try the demo' }));
  expect(await screen.findByRole('tab', { name: 'Demo bench connecting demo' })).toHaveAttribute(
    'aria-selected',
    'true',
  );
});

test('a page opened without Plugboard around it says how to start it', () => {
  delete (window as { plugboard?: unknown }).plugboard;
  render(App);
  expect(screen.getByText(/needs Plugboard around it/)).toBeVisible();
});

test('removing the open controller goes back to the Overview, also when the new list arrives first', async () => {
  const user = userEvent.setup();
  const failures: unknown[] = [];
  const onRejection = (event: PromiseRejectionEvent) => failures.push(event.reason);
  const onError = (event: ErrorEvent) => failures.push(event.error);
  window.addEventListener('unhandledrejection', onRejection);
  window.addEventListener('error', onError);
  try {
    backend
      .answer('app/snapshot', () => ({
        ok: true,
        value: snapshot({ controllers: [summary()], states: [controllerState()] }),
      }))
      // The Core announces the shorter list before it answers the call, as the real one does.
      .answer('controllers/remove', () => {
        backend.emit('controllers/changed', []);
        return { ok: true, value: null };
      });
    render(App);
    await user.click(await screen.findByRole('tab', { name: /^Bench A/ }));
    await user.click(screen.getByRole('tab', { name: 'System' }));
    await user.click(screen.getByRole('button', { name: 'Remove Bench A…' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Remove' }));
    expect(await screen.findByRole('heading', { name: 'No controllers yet' })).toBeVisible();
    expect(screen.getByRole('button', { name: 'Overview' })).toHaveAttribute('aria-current', 'page');
    await new Promise((done) => setTimeout(done, 0));
    expect(failures).toEqual([]);
  } finally {
    window.removeEventListener('unhandledrejection', onRejection);
    window.removeEventListener('error', onError);
  }
});
