/** The pdudaemon alias (issue 15) in the add form and the System tab's connection form. */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { CallInput } from '../../src-preload/contract';
import type { ControllerSummary } from '../../src-preload/model';
import ConnectionForm from '../../src-renderer/lib/components/ConnectionForm.svelte';
import ManualAddForm from '../../src-renderer/lib/components/ManualAddForm.svelte';
import type { ConnectionPatch } from '../../src-renderer/lib/state/controller-actions';
import { summary } from './fixtures';

describe('pdudaemon alias', () => {
  test('the add form sends it, and refuses one with a space', async () => {
    const user = userEvent.setup();
    const sent: CallInput<'controllers/add'>[] = [];
    render(ManualAddForm, {
      colour: '#10b981',
      onadd: async (input: CallInput<'controllers/add'>) => (
        sent.push(input),
        { ok: true, value: summary() }
      ),
      onadded: () => undefined,
    });
    await user.type(screen.getByLabelText('Address'), '10.0.0.7');
    await user.type(screen.getByLabelText('Password'), '1234');
    const alias = screen.getByLabelText(/pdudaemon alias/);
    await user.type(alias, 'bench a');
    await user.click(screen.getByRole('button', { name: 'Add this controller' }));
    expect(screen.getByText('The pdudaemon alias is one word: no spaces.')).toBeVisible();
    expect(sent).toEqual([]);
    await user.clear(alias);
    await user.type(alias, 'bench-a');
    await user.click(screen.getByRole('button', { name: 'Add this controller' }));
    expect(sent).toMatchObject([{ url: 'http://10.0.0.7', alias: 'bench-a' }]);
  });

  test('the connection form changes it, and an emptied field removes it', async () => {
    const user = userEvent.setup();
    const patches: ConnectionPatch[] = [];
    render(ConnectionForm, {
      summary: { ...summary(), alias: 'bench-a' } as ControllerSummary,
      onsave: async (patch: ConnectionPatch) => (
        patches.push(patch),
        { ok: true as const, value: summary() }
      ),
    });
    const form = screen.getByRole('form', { name: 'Connection' });
    const alias = within(form).getByLabelText(/pdudaemon alias/);
    expect(alias).toHaveValue('bench-a');
    await user.clear(alias);
    await user.type(alias, 'rack-7');
    await user.click(within(form).getByRole('button', { name: 'Save connection' }));
    await user.clear(alias);
    await user.click(within(form).getByRole('button', { name: 'Save connection' }));
    expect(patches).toEqual([{ alias: 'rack-7' }, { alias: null }]);
  });
});
