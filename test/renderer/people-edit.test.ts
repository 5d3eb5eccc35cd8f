/**
 * Changing an account in place on the People page: the form opens filled with the account as it is
 * (no name or password fields: the name stays, a password has its own form), sends `accounts/update`
 * with the role, scope and display name, and shows the Core's sentence when it refuses (the last
 * administrator of everything).
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { CallInput } from '../../src-preload/contract';
import type { AccountSummary } from '../../src-preload/model';
import App from '../../src-renderer/App.svelte';
import { accountSummary, controllerState, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

let backend: TestBackend;
let accounts: AccountSummary[];

beforeEach(() => {
  accounts = [
    accountSummary({
      name: 'bob',
      displayName: 'Bob B.',
      scope: { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] },
    }),
    accountSummary({ name: 'root', displayName: 'root', role: 'admin' }),
  ];
  backend = new TestBackend();
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({
      controllers: [summary({ tags: ['rack-7'] }), summary({ id: 'bench-b', name: 'Bench B', order: 1 })],
      states: [controllerState(), controllerState({ id: 'bench-b' })],
    }),
  }));
  backend.answer('accounts/list', () => ({ ok: true, value: accounts }));
  backend.answer('accounts/update', (input) => {
    const { name, ...change } = input as CallInput<'accounts/update'>;
    if (name === 'root' && change.role !== 'admin')
      return {
        ok: false,
        error: {
          code: 'BAD_INPUT',
          message:
            'root is the last administrator of everything: a lab keeps one, so it cannot be made an operator.',
        },
      };
    accounts = accounts.map((a) =>
      a.name === name ? { ...a, ...change, displayName: change.displayName || a.name } : a,
    );
    return { ok: true, value: accounts.find((a) => a.name === name)! };
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

const rowOf = (table: HTMLElement, name: string) =>
  within(table)
    .getByRole('rowheader', { name: new RegExp(`^${name}`) })
    .closest('tr')!;

test('changes an account in place from a form filled with it as it is', async () => {
  const { user, table } = await openPeople();
  await user.click(within(rowOf(table, 'bob')).getByRole('button', { name: 'Change bob' }));
  const form = screen.getByRole('form', { name: 'Change bob' });
  expect(within(form).queryByRole('textbox', { name: /^Name/ })).toBeNull();
  expect(within(form).queryByLabelText('Password')).toBeNull();
  const display = within(form).getByRole('textbox', { name: 'Display name (optional)' });
  expect(display).toHaveValue('Bob B.');
  expect(within(form).getByRole('combobox', { name: 'Role' })).toHaveValue('operator');
  expect(within(form).getByRole('radio', { name: /Some tags/ })).toBeChecked();
  expect(within(form).getByRole('checkbox', { name: 'rack-7' })).toBeChecked();

  // A scope of nothing is caught before anything is sent.
  await user.click(within(form).getByRole('checkbox', { name: 'rack-7' }));
  await user.click(within(form).getByRole('button', { name: 'Save changes' }));
  expect(
    within(form).getByText('Choose at least one tag, controller or outlet, or “Everything”.'),
  ).toBeVisible();
  expect(backend.calls.filter((c) => c.name === 'accounts/update')).toEqual([]);

  await user.click(within(form).getByRole('checkbox', { name: 'Bench B' }));
  await user.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'admin');
  await user.clear(display);
  await user.click(within(form).getByRole('button', { name: 'Save changes' }));
  expect(backend.calls.filter((c) => c.name === 'accounts/update').map((c) => c.input)).toEqual([
    {
      name: 'bob',
      role: 'admin',
      displayName: '',
      scope: { kind: 'some', tags: [], controllers: ['bench-b'], outlets: [] },
    },
  ]);
  expect(await screen.findByText('Account bob changed.')).toBeDefined();
  expect(screen.queryByRole('form', { name: 'Change bob' })).toBeNull();
  const row = rowOf(table, 'bob');
  expect(
    within(row)
      .getAllByRole('cell')
      .map((c) => c.textContent),
  ).toEqual(expect.arrayContaining(['admin', 'Bench B']));
});

test("shows the Core's sentence when it refuses to demote the last administrator", async () => {
  const { user, table } = await openPeople();
  await user.click(within(rowOf(table, 'root')).getByRole('button', { name: 'Change root' }));
  const form = screen.getByRole('form', { name: 'Change root' });
  await user.selectOptions(within(form).getByRole('combobox', { name: 'Role' }), 'operator');
  await user.click(within(form).getByRole('button', { name: 'Save changes' }));
  expect(
    await within(form).findByText(/root is the last administrator of everything: a lab keeps one/),
  ).toBeVisible();
  expect(within(form).getByText(/root was not changed\./)).toBeVisible();
  expect(rowOf(table, 'root').textContent).toContain('admin');
});
