import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import UsersPanel from '../../src-renderer/lib/panels/UsersPanel.svelte';
import { validateUser, emptyUserDraft } from '../../src-renderer/lib/user-form';
import { capabilities, controllerState, outlet, users } from './fixtures';

type NewUser = {
  name: string;
  password: string;
  isAdmin: boolean;
  isAllowed: boolean;
  outletAccess: boolean[];
};

function userActions() {
  const created: NewUser[] = [];
  const deleted: [string, boolean | undefined][] = [];
  const updated: [string, object][] = [];
  return {
    created,
    deleted,
    updated,
    actions: {
      updateUser: async (name: string, change: object) => {
        updated.push([name, change]);
        return { ok: true as const, value: { warning: null } };
      },
      createUser: async (u: NewUser) => {
        created.push(u);
        return { ok: true as const, value: null };
      },
      deleteUser: async (name: string, confirmOwnUser?: boolean) => {
        deleted.push([name, confirmOwnUser]);
        return { ok: true as const, value: null };
      },
    },
  };
}

function tenOutlets() {
  return controllerState({
    capabilities: capabilities({ outletCount: 10 }),
    outlets: Array.from({ length: 10 }, (_, i) => outlet(i + 1)),
  });
}

describe('user form rules', () => {
  test('name, password and repeat each get a message a person can act on', () => {
    const draft = { ...emptyUserDraft(8), name: 'tech', password: 'a', repeat: 'b' };
    expect(validateUser(draft, ['admin', 'Tech'])).toEqual({
      name: 'A user called “tech” already exists on this controller.',
      repeat: 'The two passwords do not match.',
    });
    expect(validateUser({ ...draft, name: 'two words', repeat: 'a' }, [])).toEqual({
      name: 'A user name may not contain spaces or colons.',
    });
  });
});

describe('users panel', () => {
  test('lists users with their flags and the outlet-access matrix', () => {
    render(UsersPanel, {
      controllerName: 'Bench A',
      user: 'admin',
      live: controllerState(),
      actions: userActions().actions,
    });
    const tech = screen.getByRole('row', { name: /^tech/ });
    const cells = within(tech)
      .getAllByRole('cell')
      .map((c) => c.textContent?.trim());
    // Administrator, allowed, then outlets 1–8, then the delete button cell.
    expect(cells.slice(0, 10)).toEqual(['no', 'yes', 'yes', 'yes', 'no', 'no', 'yes', 'no', 'no', 'no']);
    expect(screen.getByRole('columnheader', { name: 'Outlet 3 Switch' })).toBeInTheDocument();
  });

  test('the create form shows validation messages and sends nothing until they are fixed', async () => {
    const user = userEvent.setup();
    const { created, actions } = userActions();
    render(UsersPanel, { controllerName: 'Bench A', user: 'admin', live: controllerState(), actions });
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    const form = screen.getByRole('form', { name: 'New user' });
    await user.click(within(form).getByRole('button', { name: 'Create user' }));
    expect(within(form).getByText('Enter a user name.')).toBeVisible();
    expect(within(form).getByText('Enter a password.')).toBeVisible();
    expect(within(form).getByLabelText('User name')).toHaveAccessibleDescription('Enter a user name.');

    await user.type(within(form).getByLabelText('User name'), 'bench-op');
    await user.type(within(form).getByLabelText('Password'), 'secret-1');
    await user.type(within(form).getByLabelText('Repeat the password'), 'secret-2');
    await user.click(within(form).getByRole('button', { name: 'Create user' }));
    expect(within(form).getByText('The two passwords do not match.')).toBeVisible();
    expect(created).toEqual([]);
  });

  test('one checkbox per outlet of the controller, sent in outlet order', async () => {
    const user = userEvent.setup();
    const { created, actions } = userActions();
    render(UsersPanel, { controllerName: 'Bench A', user: 'admin', live: tenOutlets(), actions });
    await user.click(screen.getByRole('button', { name: 'Add user' }));
    const form = screen.getByRole('form', { name: 'New user' });
    const outlets = within(
      within(form).getByRole('group', { name: 'Outlets this user may switch' }),
    ).getAllByRole('checkbox');
    expect(outlets).toHaveLength(10);
    await user.type(within(form).getByLabelText('User name'), 'op');
    await user.type(within(form).getByLabelText('Password'), 'pw');
    await user.type(within(form).getByLabelText('Repeat the password'), 'pw');
    await user.click(outlets[1]!);
    await user.click(outlets[9]!);
    await user.click(within(form).getByRole('button', { name: 'Create user' }));
    expect(created).toEqual([
      {
        name: 'op',
        password: 'pw',
        isAdmin: false,
        isAllowed: true,
        outletAccess: [false, true, false, false, false, false, false, false, false, true],
      },
    ]);
    expect(screen.queryByRole('form', { name: 'New user' })).toBeNull();
  });

  test('the only administrator who may log in cannot be deleted: the dialog says why and cannot be confirmed', async () => {
    const user = userEvent.setup();
    const { deleted, actions } = userActions();
    render(UsersPanel, { controllerName: 'Bench A', user: 'admin', live: controllerState(), actions });
    await user.click(screen.getByRole('button', { name: 'Delete user admin' }));
    const box = screen.getByRole('dialog');
    expect(box).toHaveTextContent(
      'admin is the only administrator who may log in to Bench A, and the controller keeps at least one.',
    );
    expect(within(box).getByRole('button', { name: 'Delete user' })).toBeDisabled();
    expect(within(box).getByRole('button', { name: 'Close' })).toHaveFocus();
    await user.click(within(box).getByRole('button', { name: 'Close' }));
    expect(deleted).toEqual([]);
  });

  test('deleting asks first, and warns when it is the login Plugboard uses', async () => {
    const user = userEvent.setup();
    const { deleted, actions } = userActions();
    // tech is an administrator too, so the controller lets admin go.
    const live = controllerState({ users: users().map((u) => ({ ...u, isAdmin: true })) });
    render(UsersPanel, { controllerName: 'Bench A', user: 'admin', live, actions });
    await user.click(screen.getByRole('button', { name: 'Delete user admin' }));
    expect(screen.getByRole('dialog')).toHaveAccessibleDescription(
      "Plugboard logs in to Bench A as admin: after deleting it, Plugboard can no longer reach Bench A until you give another user's password.",
    );
    // Like a critical outlet: nothing is deleted until the box naming what breaks is ticked.
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    expect(deleted).toEqual([]);
    await user.click(
      screen.getByRole('checkbox', { name: /Yes, delete admin although Plugboard logs in as it/ }),
    );
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    expect(deleted).toEqual([['admin', true]]);
    await user.click(screen.getByRole('button', { name: 'Delete user tech' }));
    await user.click(screen.getByRole('button', { name: 'Delete user' }));
    expect(deleted).toEqual([
      ['admin', true],
      ['tech', false],
    ]);
  });

  test('changing a user sends only what differs, and asks for a change first', async () => {
    const user = userEvent.setup();
    const { updated, actions } = userActions();
    render(UsersPanel, { controllerName: 'Bench A', user: 'admin', live: controllerState(), actions });
    await user.click(screen.getByRole('button', { name: 'Change user tech' }));
    const form = screen.getByRole('form', { name: 'Change user “tech”' });
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(within(form).getByRole('alert')).toHaveTextContent('Nothing is changed yet');
    expect(updated).toEqual([]);
    await user.click(within(form).getByLabelText(/Administrator/));
    const outlets = within(
      within(form).getByRole('group', { name: 'Outlets this user may switch' }),
    ).getAllByRole('checkbox');
    await user.click(outlets[2]!);
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    expect(updated).toEqual([
      ['tech', { isAdmin: true, outletAccess: [true, true, true, false, true, false, false, false] }],
    ]);
    expect(screen.queryByRole('form', { name: 'Change user “tech”' })).toBeNull();
  });

  test("stopping Plugboard's own user from logging in is confirmed like deleting it", async () => {
    const user = userEvent.setup();
    const { updated, actions } = userActions();
    render(UsersPanel, { controllerName: 'Bench A', user: 'admin', live: controllerState(), actions });
    await user.click(screen.getByRole('button', { name: 'Change user admin' }));
    const form = screen.getByRole('form', { name: 'Change user “admin”' });
    await user.click(within(form).getByRole('checkbox', { name: 'Allowed to log in' }));
    await user.click(within(form).getByRole('button', { name: 'Save changes' }));
    const confirm = screen.getByRole('dialog');
    expect(confirm).toHaveAccessibleDescription(
      /Plugboard logs in to Bench A as admin: once it may not log in/,
    );
    await user.click(within(confirm).getByRole('checkbox', { name: /Yes, stop admin/ }));
    await user.click(within(confirm).getByRole('button', { name: 'Save changes' }));
    expect(updated).toEqual([['admin', { isAllowed: false, confirmOwnUser: true }]]);
  });

  test('a non-admin login sees why users are not available', () => {
    const live = controllerState({ capabilities: capabilities({ isAdmin: false }), users: null });
    render(UsersPanel, { controllerName: 'Bench A', user: 'tech', live, actions: userActions().actions });
    expect(screen.getByText(/Managing users needs an administrator/)).toBeVisible();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
