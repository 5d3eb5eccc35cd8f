/**
 * Issue 16 item 3: switching off from the Overview is deliberate (a second press on the same tile within
 * ARM_MS), a critical outlet always asks the outlet rows' confirmation, and a blocked tile keeps focus.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import App from '../../src-renderer/App.svelte';
import { ARM_MS } from '../../src-renderer/lib/overview-switch.svelte';
import { controllerState, outlet, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

let backend: TestBackend;

function start() {
  const a = controllerState();
  a.outlets[1] = outlet(2, { critical: true, state: true, transientState: true, physicalState: true });
  a.outlets[4] = outlet(5, { locked: true });
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({ controllers: [summary()], states: [a] }),
  }));
  backend.answer('outlets/set', (input) => ({
    ok: true,
    value: { requested: (input as { outlets: number[] }).outlets, failed: [] },
  }));
  render(App);
}

async function tile(name: RegExp) {
  const grid = await screen.findByRole('list', { name: 'Outlets of Bench A' });
  return within(grid).getByRole('button', { name });
}

beforeEach(() => {
  backend = new TestBackend();
  (window as { plugboard?: unknown }).plugboard = backend.api;
});
afterEach(() => {
  vi.useRealTimers();
  delete (window as { plugboard?: unknown }).plugboard;
});

test('switching off takes a second press on the same tile; the first says so', async () => {
  const user = userEvent.setup();
  start();
  const router = await tile(/^1 Router/);
  await user.click(router);
  expect(backend.callsOf('outlets/set')).toEqual([]);
  expect(router).toHaveTextContent(/press again: off/i);
  expect(
    screen.getByText('Press outlet 1 (Router) on Bench A again within 4 s to switch it off.'),
  ).toBeInTheDocument();
  await user.click(router);
  expect(backend.callsOf('outlets/set')).toEqual([
    { controllerId: 'bench-a', outlets: [1], on: false, transient: false, confirmCritical: false },
  ]);
});

test('the keyboard arms and switches the same way; a press elsewhere disarms', async () => {
  const user = userEvent.setup();
  start();
  const router = await tile(/^1 Router/);
  router.focus();
  await user.keyboard('{Enter}');
  // Switching another outlet on in between: the armed "off" is forgotten, not carried over.
  await user.click(await tile(/^4 Scope/));
  expect(backend.callsOf('outlets/set')).toEqual([
    { controllerId: 'bench-a', outlets: [4], on: true, transient: false, confirmCritical: false },
  ]);
  router.focus();
  await user.keyboard(' ');
  expect(backend.callsOf('outlets/set')).toHaveLength(1);
  await user.keyboard(' ');
  expect(backend.callsOf('outlets/set')).toHaveLength(2);
  expect(router).toHaveFocus();
});

test('an armed tile lapses after ARM_MS: a later press arms it again instead of switching', async () => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
  const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
  start();
  const router = await tile(/^1 Router/);
  await user.click(router);
  expect(router).toHaveTextContent(/press again: off/i);
  await vi.advanceTimersByTimeAsync(ARM_MS + 500);
  expect(router).not.toHaveTextContent(/press again/i);
  await user.click(router);
  expect(backend.callsOf('outlets/set')).toEqual([]);
  expect(router).toHaveTextContent(/press again: off/i);
});

test('a critical outlet is marked in words and asks the rows’ confirmation before off', async () => {
  const user = userEvent.setup();
  start();
  const server = await tile(/^2 Server/);
  expect(server).toHaveTextContent(/critical/i);
  await user.click(server);
  let dialog = screen.getByRole('dialog', { name: 'Switch off outlet 2 (Server) on Bench A?' });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(backend.callsOf('outlets/set')).toEqual([]);

  await user.click(server);
  dialog = screen.getByRole('dialog', { name: 'Switch off outlet 2 (Server) on Bench A?' });
  expect(within(dialog).getByRole('button', { name: 'Switch off' })).toBeDisabled();
  await user.click(within(dialog).getByRole('checkbox', { name: /include the critical outlets/ }));
  await user.click(within(dialog).getByRole('button', { name: 'Switch off' }));
  expect(backend.callsOf('outlets/set')).toEqual([
    { controllerId: 'bench-a', outlets: [2], on: false, transient: false, confirmCritical: true },
  ]);
});

test('a locked tile is aria-disabled: pressing it does nothing and focus stays on it', async () => {
  const user = userEvent.setup();
  start();
  const fan = await tile(/^5 /);
  expect(fan).toHaveAttribute('aria-disabled', 'true');
  expect(fan).not.toBeDisabled();
  fan.focus();
  await user.keyboard('{Enter}');
  await user.keyboard('{Enter}');
  expect(backend.callsOf('outlets/set')).toEqual([]);
  expect(fan).toHaveFocus();
});
