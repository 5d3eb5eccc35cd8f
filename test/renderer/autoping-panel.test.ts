import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { AutopingItem, AutopingItemInput, Result } from '../../src-preload/model';
import { validateAutoping, autopingDraft } from '../../src-renderer/lib/autoping-form';
import AutopingPanel from '../../src-renderer/lib/panels/AutopingPanel.svelte';
import { controllerState } from './fixtures';

/** Actions that keep the items like the controller would, and record what was asked. */
function autopingActions(start: AutopingItem[] = []) {
  let items = [...start];
  const saved: { number: number | undefined; item: AutopingItemInput }[] = [];
  const removed: number[] = [];
  const ok = (): Result<AutopingItem[]> => ({ ok: true, value: items });
  return {
    saved,
    removed,
    actions: {
      autopingList: async () => ok(),
      autopingSave: async (number: number | undefined, item: AutopingItemInput) => {
        saved.push({ number, item });
        const status = item.enabled ? 'waiting' : 'disabled';
        if (number === undefined) items = [...items, { ...item, number: items.length + 1, status }];
        else items = items.map((i) => (i.number === number ? { ...item, number, status } : i));
        return ok();
      },
      autopingRemove: async (number: number) => {
        removed.push(number);
        items = items.filter((i) => i.number !== number).map((i, index) => ({ ...i, number: index + 1 }));
        return ok();
      },
    },
  };
}

const MODEM: AutopingItem = {
  number: 1,
  addresses: ['10.0.0.5'],
  outlets: [2],
  enabled: true,
  pingsBeforeEnabling: null,
  resumptionTrial: false,
  script: '',
  status: 'ok',
};

describe('AutoPing form rules', () => {
  test('addresses, outlets and pings each get a message a person can act on', () => {
    const draft = { ...autopingDraft(8), addresses: 'ok.lan bad;host', pings: 'ten' };
    expect(validateAutoping(draft)).toEqual({
      addresses: '“bad;host” is not a host name or IP address.',
      outlets: 'Choose the outlets to power-cycle, or a script to run instead.',
      pings: 'A whole number, or empty for the controller’s own setting.',
    });
  });
});

describe('AutoPing panel', () => {
  test('lists items with their status and adds one with 1-based outlets', async () => {
    const user = userEvent.setup();
    const { saved, actions } = autopingActions([MODEM]);
    render(AutopingPanel, { controllerName: 'Bench A', live: controllerState(), actions });
    const row = await screen.findByRole('row', { name: /10\.0\.0\.5/ });
    expect(within(row).getByText('Answering')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Add item' }));
    const form = screen.getByRole('form', { name: 'New AutoPing item' });
    await user.click(within(form).getByRole('button', { name: 'Add item' }));
    expect(within(form).getByText('Enter at least one address to ping.')).toBeVisible();
    expect(saved).toEqual([]);

    await user.type(within(form).getByLabelText(/Addresses to ping/), 'router.lan, 10.0.0.9');
    const outlets = within(within(form).getByRole('group')).getAllByRole('checkbox');
    await user.click(outlets[0]!);
    await user.click(outlets[7]!);
    await user.type(within(form).getByLabelText(/Answered pings/), '4');
    await user.click(within(form).getByRole('button', { name: 'Add item' }));
    expect(saved).toEqual([
      {
        number: undefined,
        item: {
          addresses: ['router.lan', '10.0.0.9'],
          outlets: [1, 8],
          enabled: true,
          pingsBeforeEnabling: 4,
          resumptionTrial: false,
          script: '',
        },
      },
    ]);
    expect(screen.queryByRole('form', { name: 'New AutoPing item' })).toBeNull();
    expect(await screen.findByRole('row', { name: /router\.lan, 10\.0\.0\.9/ })).toBeVisible();
  });

  test('disables and edits an item, keeping what was not changed', async () => {
    const user = userEvent.setup();
    const { saved, actions } = autopingActions([MODEM]);
    render(AutopingPanel, { controllerName: 'Bench A', live: controllerState(), actions });
    await user.click(await screen.findByRole('checkbox', { name: 'AutoPing item 1 enabled' }));
    // Exactly the item's fields, as the contract takes them (no number, no status).
    expect(saved.at(-1)).toEqual({
      number: 1,
      item: {
        addresses: ['10.0.0.5'],
        outlets: [2],
        enabled: false,
        pingsBeforeEnabling: null,
        resumptionTrial: false,
        script: '',
      },
    });
    expect(await screen.findByText('Disabled')).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Edit AutoPing item 1' }));
    const form = screen.getByRole('form', { name: 'AutoPing item 1' });
    expect(within(form).getByLabelText(/Addresses to ping/)).toHaveValue('10.0.0.5');
    await user.click(within(form).getByLabelText(/wait for answers again/));
    await user.click(within(form).getByRole('button', { name: 'Save item' }));
    expect(saved.at(-1)).toEqual({
      number: 1,
      item: {
        addresses: ['10.0.0.5'],
        outlets: [2],
        enabled: false,
        pingsBeforeEnabling: null,
        resumptionTrial: true,
        script: '',
      },
    });
  });

  test('deleting asks first and names the addresses', async () => {
    const user = userEvent.setup();
    const { removed, actions } = autopingActions([MODEM]);
    render(AutopingPanel, { controllerName: 'Bench A', live: controllerState(), actions });
    await user.click(await screen.findByRole('button', { name: 'Delete AutoPing item 1' }));
    expect(screen.getByRole('dialog')).toHaveAccessibleDescription(/stops pinging 10\.0\.0\.5/);
    await user.keyboard('{Escape}');
    expect(removed).toEqual([]);
    await user.click(screen.getByRole('button', { name: 'Delete AutoPing item 1' }));
    await user.click(screen.getByRole('button', { name: 'Delete item' }));
    expect(removed).toEqual([1]);
    expect(await screen.findByText('No AutoPing items on Bench A yet.')).toBeVisible();
  });

  test('a failed read is shown with what went wrong', async () => {
    const actions = {
      ...autopingActions().actions,
      autopingList: async (): Promise<Result<AutopingItem[]>> => ({
        ok: false,
        error: {
          code: 'FORBIDDEN',
          message: 'Only administrators can use AutoPing on Bench A.',
          action: 'Log in as an administrator.',
        },
      }),
    };
    render(AutopingPanel, { controllerName: 'Bench A', live: controllerState(), actions });
    expect(await screen.findByText(/Only administrators can use AutoPing/)).toBeVisible();
    expect(screen.getByRole('button', { name: 'Add item' })).toBeDisabled();
  });
});
