/**
 * The window asks before the stored secret goes to a changed place: the connection form offers an explicit
 * confirmation (or the secret typed again), and accepting a new certificate asks for one of the two.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { ControllerSummary, Result } from '../../src-preload/model';
import ConnectionForm from '../../src-renderer/lib/components/ConnectionForm.svelte';
import ControllerHeader from '../../src-renderer/lib/components/ControllerHeader.svelte';
import type { ConnectionPatch, SecretConfirmation } from '../../src-renderer/lib/state/controller-actions';
import { controllerState, summary } from './fixtures';

const saved = (): Result<ControllerSummary> => ({ ok: true, value: summary() });
const FINGERPRINT = Array(32).fill('C4').join(':');

describe('the stored secret in the window', () => {
  test('a changed address is saved with the stored password only when the box is ticked', async () => {
    const user = userEvent.setup();
    const patches: ConnectionPatch[] = [];
    render(ConnectionForm, {
      summary: summary(),
      onsave: async (p: ConnectionPatch) => (patches.push(p), saved()),
    });
    const form = screen.getByRole('form', { name: 'Connection' });
    expect(within(form).queryByRole('checkbox', { name: /Send the stored password/ })).toBeNull();

    const address = within(form).getByLabelText('Address');
    await user.clear(address);
    await user.type(address, 'http://10.9.9.9');
    const confirm = within(form).getByRole('checkbox', {
      name: /Send the stored password to the changed address/,
    });
    expect(confirm).not.toBeChecked();
    await user.click(within(form).getByRole('button', { name: 'Save connection' }));
    expect(patches[0]).toEqual({ url: 'http://10.9.9.9' });

    await user.click(confirm);
    await user.click(within(form).getByRole('button', { name: 'Save connection' }));
    expect(patches[1]).toEqual({ url: 'http://10.9.9.9', reuseSecret: true });
  });

  test('a demo controller (its password in memory) asks the same', async () => {
    const user = userEvent.setup();
    render(ConnectionForm, {
      summary: summary({ demo: true, hasSecret: false }),
      onsave: async () => saved(),
    });
    const form = screen.getByRole('form', { name: 'Connection' });
    await user.clear(within(form).getByLabelText('User'));
    await user.type(within(form).getByLabelText('User'), 'guest');
    expect(
      within(form).getByRole('checkbox', { name: /Send the stored password to the changed login/ }),
    ).toBeVisible();
  });

  test('switching a digest login to Basic asks for the password again, with no box to tick', async () => {
    const user = userEvent.setup();
    render(ConnectionForm, { summary: summary(), onsave: async () => saved() });
    const form = screen.getByRole('form', { name: 'Connection' });
    await user.selectOptions(within(form).getByLabelText('Login'), 'basic');
    expect(within(form).getByText(/never sent as Basic/)).toBeVisible();
    expect(within(form).queryByRole('checkbox', { name: /Send the stored/ })).toBeNull();
  });

  test('trusting a new certificate needs the password typed again or the stored one confirmed', async () => {
    const user = userEvent.setup();
    const calls: [string, SecretConfirmation | undefined][] = [];
    const live = controllerState({
      status: 'tls_changed',
      problem: {
        code: 'TLS_CHANGED',
        message: 'The HTTPS certificate changed.',
        detail: { fingerprint: FINGERPRINT },
      },
    });
    render(ControllerHeader, {
      summary: summary(),
      live,
      pollIntervalMs: 2000,
      actions: {
        refresh: async () => ({ ok: true, value: null }),
        trustCertificate: async (fingerprint: string, confirm?: SecretConfirmation) => (
          calls.push([fingerprint, confirm]),
          saved()
        ),

        update: async () => saved(),
      },
    });
    await user.click(screen.getByRole('button', { name: 'Trust the new certificate…' }));
    const form = screen.getByRole('form', { name: 'Trust the new certificate' });
    const submit = within(form).getByRole('button', { name: 'Trust and connect' });
    expect(submit).toBeDisabled();
    expect(calls).toEqual([]);

    await user.click(within(form).getByRole('checkbox', { name: 'Send the stored password' }));
    await user.click(submit);
    expect(calls).toEqual([[FINGERPRINT, { reuseSecret: true }]]);

    await user.click(screen.getByRole('button', { name: 'Trust the new certificate…' }));
    const again = screen.getByRole('form', { name: 'Trust the new certificate' });
    await user.type(within(again).getByLabelText('Password'), 'typed-again');
    await user.click(within(again).getByRole('button', { name: 'Trust and connect' }));
    expect(calls[1]).toEqual([FINGERPRINT, { secret: 'typed-again' }]);
  });
});

describe('a saved controller whose place changed outside Plugboard', () => {
  const moved = (confirmSecret: boolean) =>
    controllerState({
      status: 'auth_failed',
      problem: {
        code: 'AUTH_FAILED',
        message: 'The stored password of "Bench A" was saved for another place: Plugboard sent it nowhere.',
        detail: { confirmSecret, changed: 'address' },
      },
    });

  function renderHeader(confirmSecret: boolean) {
    const patches: ConnectionPatch[] = [];
    render(ControllerHeader, {
      summary: summary(),
      live: moved(confirmSecret),
      pollIntervalMs: 2000,
      actions: {
        refresh: async () => ({ ok: true, value: null }),
        trustCertificate: async () => saved(),
        update: async (patch: ConnectionPatch) => (patches.push(patch), saved()),
      },
    });
    return patches;
  }

  test('sends the stored password to the new place only when confirmed, or the one typed again', async () => {
    const user = userEvent.setup();
    const patches = renderHeader(true);
    const form = screen.getByRole('form', { name: 'Send the stored password to the new place' });
    const submit = within(form).getByRole('button', { name: 'Send and connect' });
    expect(submit).toBeDisabled();

    await user.click(within(form).getByRole('checkbox', { name: 'Send the stored password' }));
    await user.click(submit);
    expect(patches).toEqual([{ reuseSecret: true }]);

    await user.click(within(form).getByRole('checkbox', { name: 'Send the stored password' }));
    await user.type(within(form).getByLabelText('Password'), 'typed-again');
    await user.click(submit);
    const s = summary();
    expect(patches[1]).toEqual({ auth: { kind: s.auth, user: s.user, password: 'typed-again' } });
  });

  test('offers no confirmation where the stored password may not go (digest to Basic)', () => {
    renderHeader(false);
    const form = screen.getByRole('form', { name: 'Send the stored password to the new place' });
    expect(within(form).queryByRole('checkbox')).toBeNull();
    expect(within(form).getByText(/never sent as Basic/)).toBeVisible();
  });
});
