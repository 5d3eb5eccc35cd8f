/**
 * The People page in the whole window: offered only when the Core lets the window list accounts, the
 * scope in words, adding an account (the password typed twice, gone from the form once sent), the Core's
 * refusals in its own words, disabling, and removing after a confirmation naming the account.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest';
import type { CallInput } from '../../src-preload/contract';
import type { AccountSummary } from '../../src-preload/model';
import App from '../../src-renderer/App.svelte';
import { numberRuns, scopeWords } from '../../src-renderer/lib/account-form';
import { accountSummary, controllerState, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

let backend: TestBackend;
let accounts: AccountSummary[];

const names = (id: string) => ({ 'bench-a': 'Bench A', 'bench-b': 'Bench B' })[id];

beforeEach(() => {
  accounts = [accountSummary({ name: 'root', role: 'admin', sessions: 2 })];
  backend = new TestBackend();
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({
      controllers: [summary({ tags: ['rack-7'] }), summary({ id: 'bench-b', name: 'Bench B', order: 1 })],
      states: [controllerState(), controllerState({ id: 'bench-b' })],
    }),
  }));
  backend.answer('accounts/list', () => ({ ok: true, value: accounts }));
  backend.answer('accounts/add', (input) => {
    const { password: _password, ...rest } = input as CallInput<'accounts/add'>;
    const added = accountSummary({ ...rest, displayName: rest.displayName ?? '' });
    accounts = [...accounts, added];
    return { ok: true, value: added };
  });
  backend.answer('accounts/setDisabled', (input) => {
    const { name, disabled } = input as CallInput<'accounts/setDisabled'>;
    accounts = accounts.map((a) => (a.name === name ? { ...a, disabled, sessions: 0 } : a));
    return { ok: true, value: null };
  });
  backend.answer('accounts/remove', (input) => {
    accounts = accounts.filter((a) => a.name !== (input as { name: string }).name);
    return { ok: true, value: null };
  });
  (window as { plugboard?: unknown }).plugboard = backend.api;
});
afterEach(() => delete (window as { plugboard?: unknown }).plugboard);

async function openPeople() {
  const user = userEvent.setup();
  render(App);
  await user.click(await screen.findByRole('button', { name: 'People' }));
  const table = await screen.findByRole('table', { name: 'Accounts, their roles and where each applies' });
  return { user, table };
}

function rowOf(table: HTMLElement, name: string): HTMLElement {
  return within(table)
    .getByRole('rowheader', { name: new RegExp(`^${name}`) })
    .closest('tr')!;
}

describe('scope in words', () => {
  test('everything, tags, controllers by name, outlets as runs; a controller the window lost by its id', () => {
    expect(scopeWords({ kind: 'all' }, names)).toBe('everything');
    expect(
      scopeWords(
        {
          kind: 'some',
          tags: ['rack-7'],
          controllers: ['bench-b', 'gone'],
          outlets: [1, 3, 2, 5].map((outlet) => ({ controllerId: 'bench-a', outlet })),
        },
        names,
      ),
    ).toBe('tag rack-7; Bench B; controller gone; Bench A outlets 1–3, 5');
    expect(numberRuns([4, 1, 2])).toBe('1, 2, 4');
  });
});

test('the People page is offered only when the Core answers the account list', async () => {
  backend.answer('accounts/list', () => ({
    ok: false,
    error: { code: 'FORBIDDEN', message: 'ada is an operator: it may not see the accounts.' },
  }));
  render(App);
  await screen.findByRole('button', { name: 'Settings' });
  // The test backend answers at once: one task later every promise of the probe has settled.
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(backend.calls.some((c) => c.name === 'accounts/list')).toBe(true);
  expect(screen.queryByRole('button', { name: 'People' })).toBeNull();
});

test('adds an account with a scope picked from tags and outlets; the password leaves the form as it is sent', async () => {
  const { user, table } = await openPeople();
  expect(
    within(rowOf(table, 'root'))
      .getAllByRole('cell')
      .map((c) => c.textContent),
  ).toContain('everything');
  await user.click(screen.getByRole('button', { name: 'Add account' }));
  const form = screen.getByRole('form', { name: 'New account' });
  await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'Bob');
  await user.type(within(form).getByRole('textbox', { name: 'Display name (optional)' }), 'Bob Builder');
  await user.click(within(form).getByRole('radio', { name: /Some tags/ }));
  await user.click(within(form).getByRole('button', { name: 'Add account' }));
  expect(
    within(form).getByText('Choose at least one tag, controller or outlet, or “Everything”.'),
  ).toBeVisible();
  await user.click(within(form).getByRole('checkbox', { name: 'rack-7' }));
  for (const n of [1, 2, 3])
    await user.click(within(form).getByRole('checkbox', { name: new RegExp(`^${n} `) }));
  const password = within(form).getByLabelText('Password');
  const repeat = within(form).getByLabelText('Repeat the password');
  await user.type(password, 'a long enough password');
  await user.type(repeat, 'a long enough passwort');
  await user.click(within(form).getByRole('button', { name: 'Add account' }));
  expect(within(form).getByText('The two passwords differ: type the same password twice.')).toBeVisible();
  expect(backend.calls.filter((c) => c.name === 'accounts/add')).toEqual([]);
  await user.clear(repeat);
  await user.type(repeat, 'a long enough password');
  await user.click(within(form).getByRole('button', { name: 'Add account' }));
  expect(backend.calls.filter((c) => c.name === 'accounts/add').map((c) => c.input)).toEqual([
    {
      name: 'bob',
      displayName: 'Bob Builder',
      role: 'operator',
      password: 'a long enough password',
      scope: {
        kind: 'some',
        tags: ['rack-7'],
        controllers: [],
        outlets: [1, 2, 3].map((outlet) => ({ controllerId: 'bench-a', outlet })),
      },
    },
  ]);
  const bob = await within(table).findByRole('rowheader', { name: /^bob/ });
  expect(bob.closest('tr')!.textContent).toContain('tag rack-7; Bench A outlets 1–3');
  expect(screen.queryByRole('form', { name: 'New account' })).toBeNull();
  expect(document.body.innerHTML).not.toContain('a long enough password');
});

test("a refusal shows the Core's sentence, and the password must be typed again", async () => {
  backend.answer('accounts/add', () => ({
    ok: false,
    error: {
      code: 'BAD_INPUT',
      message:
        'The password is shorter than 12 characters: choose a longer one (a few words make a good one).',
    },
  }));
  const { user } = await openPeople();
  await user.click(screen.getByRole('button', { name: 'Add account' }));
  const form = screen.getByRole('form', { name: 'New account' });
  await user.type(within(form).getByRole('textbox', { name: /^Name/ }), 'eve');
  await user.type(within(form).getByLabelText('Password'), 'short');
  await user.type(within(form).getByLabelText('Repeat the password'), 'short');
  await user.click(within(form).getByRole('button', { name: 'Add account' }));
  expect(
    await within(form).findByText(/The password is shorter than 12 characters: choose a longer one/),
  ).toBeVisible();
  expect(within(form).getByLabelText('Password')).toHaveValue('');
  expect(within(form).getByLabelText('Repeat the password')).toHaveValue('');
});

test('disables an account, and removes one only after a confirmation naming it', async () => {
  const { user, table } = await openPeople();
  await user.click(within(rowOf(table, 'root')).getByRole('button', { name: 'Disable root' }));
  expect(backend.calls.filter((c) => c.name === 'accounts/setDisabled').map((c) => c.input)).toEqual([
    { name: 'root', disabled: true },
  ]);
  expect(await within(table).findByRole('button', { name: 'Enable root' })).toBeDefined();
  expect(rowOf(table, 'root').textContent).toContain('disabled');

  await user.click(within(rowOf(table, 'root')).getByRole('button', { name: 'Remove the account root' }));
  const dialog = await screen.findByRole('dialog', { name: 'Remove the account “root”?' });
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  expect(backend.calls.filter((c) => c.name === 'accounts/remove')).toEqual([]);
  await user.click(within(rowOf(table, 'root')).getByRole('button', { name: 'Remove the account root' }));
  await user.click(
    within(await screen.findByRole('dialog', { name: 'Remove the account “root”?' })).getByRole('button', {
      name: 'Remove root',
    }),
  );
  expect(backend.calls.filter((c) => c.name === 'accounts/remove').map((c) => c.input)).toEqual([
    { name: 'root' },
  ]);
  expect(await screen.findByText('No accounts yet: add the first with “Add account”.')).toBeDefined();
});

test('sets a password typed twice and ends the sessions of an account, saying how many ended', async () => {
  backend.answer('accounts/setPassword', () => ({ ok: true, value: null }));
  backend.answer('accounts/revoke', () => {
    accounts = accounts.map((a) => ({ ...a, sessions: 0 }));
    return { ok: true, value: { sessions: 2 } };
  });
  const { user, table } = await openPeople();
  await user.click(within(rowOf(table, 'root')).getByRole('button', { name: 'End the sessions of root' }));
  expect(await screen.findByText('2 sessions of root ended.')).toBeDefined();
  expect(
    within(rowOf(table, 'root')).getByRole('button', { name: 'End the sessions of root' }),
  ).toBeDisabled();

  await user.click(within(rowOf(table, 'root')).getByRole('button', { name: 'Set a password for root' }));
  const form = screen.getByRole('form', { name: 'New password for root' });
  await user.type(within(form).getByLabelText('New password'), 'another long password');
  await user.type(within(form).getByLabelText('Repeat the new password'), 'another long passwort');
  await user.click(within(form).getByRole('button', { name: 'Set password' }));
  expect(within(form).getByText('The two passwords differ: type the same password twice.')).toBeVisible();
  await user.clear(within(form).getByLabelText('Repeat the new password'));
  await user.type(within(form).getByLabelText('Repeat the new password'), 'another long password');
  await user.click(within(form).getByRole('button', { name: 'Set password' }));
  expect(backend.calls.filter((c) => c.name === 'accounts/setPassword').map((c) => c.input)).toEqual([
    { name: 'root', password: 'another long password' },
  ]);
  expect(await screen.findByText('A new password is set for root; their sessions ended.')).toBeDefined();
  expect(screen.queryByRole('form', { name: 'New password for root' })).toBeNull();
});

/** The window asked who it is, and what it does with the answer has run (a macrotask later). */
async function whoamiAnswered(): Promise<void> {
  await vi.waitFor(() => expect(backend.callsOf('app/whoami').length).toBeGreaterThan(0));
  await new Promise((resolve) => setTimeout(resolve, 0));
}

describe('offering the People page', () => {
  const me = (role: 'observer' | 'operator' | 'admin', scope: AccountSummary['scope']) => ({
    ok: true as const,
    value: { who: 'bob', displayName: 'Bob', role, scope, door: 'web' as const },
  });

  test('an operator is not offered it, and the window never asks the Core for a list it would refuse', async () => {
    backend.answer('app/whoami', () => me('operator', { kind: 'all' }));
    render(App);
    await screen.findByRole('button', { name: 'Settings' });
    await whoamiAnswered();
    expect(screen.queryByRole('button', { name: 'People' })).toBeNull();
    // Each refused list would be a "tried to see the accounts" in the lab's activity log.
    expect(backend.callsOf('accounts/list')).toEqual([]);
  });

  test('an administrator of some tags only is not offered it either', async () => {
    backend.answer('app/whoami', () =>
      me('admin', { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] }),
    );
    render(App);
    await screen.findByRole('button', { name: 'Settings' });
    await whoamiAnswered();
    expect(screen.queryByRole('button', { name: 'People' })).toBeNull();
    expect(backend.callsOf('accounts/list')).toEqual([]);
  });

  test('an administrator of everything is offered it once the Core lists the accounts', async () => {
    backend.answer('app/whoami', () => me('admin', { kind: 'all' }));
    render(App);
    expect(await screen.findByRole('button', { name: 'People' })).toBeTruthy();
    expect(backend.callsOf('accounts/list').length).toBeGreaterThan(0);
  });
});
