import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { AppSnapshot, Group } from '../../src-preload/model';
import App from '../../src-renderer/App.svelte';
import { controllerState, outlet, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

let backend: TestBackend;
const benchB = summary({ id: 'bench-b', name: 'Bench B', order: 1, colour: '#10b981' });
const group: Group = {
  id: 'g1',
  name: 'Scopes',
  members: [
    { controllerId: 'bench-a', outlet: 2 },
    { controllerId: 'bench-b', outlet: 4 },
  ],
};

function start(overrides: Partial<AppSnapshot> = {}) {
  const a = controllerState();
  a.outlets[1] = outlet(2, { critical: true, state: true, transientState: true, physicalState: true });
  const b = controllerState({
    id: 'bench-b',
    status: 'auth_failed',
    problem: { code: 'AUTH_FAILED', message: 'Wrong user name or password for Bench B.' },
  });
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({ controllers: [summary(), benchB], states: [a, b], groups: [group], ...overrides }),
  }));
  render(App);
}

beforeEach(() => {
  backend = new TestBackend();
  (window as { plugboard?: unknown }).plugboard = backend.api;
});
afterEach(() => delete (window as { plugboard?: unknown }).plugboard);

test('problems come first, in words, with a way to the controller', async () => {
  const user = userEvent.setup();
  start();
  const problems = await screen.findByRole('region', { name: 'Needs attention' });
  expect(problems).toHaveTextContent('Bench B does not accept the saved login');
  // Polling pauses on a refused login: the message says so, and what to do, instead of promising a recovery.
  expect(problems).toHaveTextContent(
    'Plugboard stopped trying, so the user is not locked out: open it to enter the password.',
  );
  expect(problems).not.toHaveTextContent(/come back|keeps trying/);
  await user.click(within(problems).getByRole('button', { name: 'Open Bench B' }));
  expect(screen.getByRole('tab', { name: /Bench B/ })).toHaveAttribute('aria-selected', 'true');
});

test('every controller’s outlets in one grid; a toggle switches the saved state', async () => {
  const user = userEvent.setup();
  backend.answer('outlets/set', () => ({ ok: true, value: { requested: [3], failed: [] } }));
  start();
  const grid = await screen.findByRole('list', { name: 'Outlets of Bench A' });
  expect(within(grid).getAllByRole('button')).toHaveLength(8);
  const sw = within(grid).getByRole('button', { name: /^3 Switch on/ });
  expect(sw).toHaveAttribute('aria-pressed', 'true');
  await user.click(sw);
  await user.click(sw); // off takes a second press (issue 16 item 3)
  expect(backend.callsOf('outlets/set')).toEqual([
    { controllerId: 'bench-a', outlets: [3], on: false, transient: false, confirmCritical: false },
  ]);
});

test('a group runs with one button; off asks first and names its critical outlets', async () => {
  const user = userEvent.setup();
  backend.answer('groups/run', () => ({
    ok: true,
    value: {
      results: [
        { controllerId: 'bench-a', outlets: [2], error: null },
        {
          controllerId: 'bench-b',
          outlets: [4],
          error: { code: 'AUTH_FAILED', message: 'Wrong user name or password for Bench B.' },
        },
      ],
    },
  }));
  start();
  const controls = await screen.findByRole('group', { name: 'Group Scopes' });
  expect(screen.getByText('Bench A: outlet 2; Bench B: outlet 4')).toBeVisible();
  await user.click(within(controls).getByRole('button', { name: 'Off' }));
  const dialog = screen.getByRole('dialog', { name: 'Switch off group Scopes?' });
  expect(within(dialog).getByRole('listitem')).toHaveTextContent('Bench A: outlet 2 (Server)');
  await user.click(within(dialog).getByRole('checkbox'));
  await user.click(within(dialog).getByRole('button', { name: 'Switch off' }));
  expect(backend.callsOf('groups/run')).toEqual([{ id: 'g1', action: 'off', confirmCritical: true }]);
  expect(await screen.findByText('Scopes on Bench B:')).toBeVisible();
});

test('a new group is made from outlets on several controllers', async () => {
  const user = userEvent.setup();
  backend.answer('groups/save', (input) => ({
    ok: true,
    value: { id: 'g2', ...(input as Omit<Group, 'id'>) },
  }));
  start({ groups: [] });
  await user.click(await screen.findByRole('button', { name: 'New group' }));
  const form = screen.getByRole('form', { name: 'New group' });
  await user.click(within(form).getByRole('button', { name: 'Save group' }));
  expect(within(form).getByText('Enter a name for the group.')).toBeVisible();
  await user.type(within(form).getByLabelText('Group name'), 'Routers');
  const benchA = within(form).getByRole('group', { name: 'Bench A' });
  await user.click(within(benchA).getByRole('checkbox', { name: '1 Router' }));
  await user.click(
    within(within(form).getByRole('group', { name: 'Bench B' })).getByRole('checkbox', { name: '1 Router' }),
  );
  await user.click(within(form).getByRole('button', { name: 'Save group' }));
  expect(backend.callsOf('groups/save')).toEqual([
    {
      name: 'Routers',
      members: [
        { controllerId: 'bench-a', outlet: 1 },
        { controllerId: 'bench-b', outlet: 1 },
      ],
    },
  ]);
  expect(await screen.findByText('Bench A: outlet 1; Bench B: outlet 1')).toBeVisible();
});
