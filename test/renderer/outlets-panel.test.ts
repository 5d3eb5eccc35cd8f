import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { OutletActionResult, Result } from '../../src-preload/model';
import OutletsPanel from '../../src-renderer/lib/panels/OutletsPanel.svelte';
import type { OutletSettingsChange } from '../../src-renderer/lib/state/controller-actions';
import { capabilities, controllerState, outlet } from './fixtures';

type Change = { outlet: number; on: boolean };

/** A controller's outlet actions that record what the panel asked for and answer like the Core. */
function recordingActions(
  answer: (outlets: number[]) => OutletActionResult = (o) => ({ requested: o, failed: [] }),
  configured: (outlet: number, change: OutletSettingsChange) => Result<null> = () => ({
    ok: true,
    value: null,
  }),
) {
  const sent: { call: string; args: unknown[] }[] = [];
  const reply = (outlets: number[]): Promise<Result<OutletActionResult>> =>
    Promise.resolve({ ok: true, value: answer(outlets) });
  return {
    sent,
    actions: {
      set: (outlets: number[] | 'all', on: boolean, transient = false) => {
        sent.push({ call: 'set', args: [outlets, on, transient] });
        return reply(outlets === 'all' ? [1, 2, 3, 4, 5, 6, 7, 8] : outlets);
      },
      cycle: (n: number) => {
        sent.push({ call: 'cycle', args: [n] });
        return reply([n]);
      },
      switchMany: (changes: Change[], transient: boolean) => {
        sent.push({ call: 'switch', args: [changes, transient] });
        return reply(changes.map((c) => c.outlet));
      },
      rename: (n: number, name: string) => {
        sent.push({ call: 'rename', args: [n, name] });
        return Promise.resolve({ ok: true as const, value: null });
      },
      configure: (n: number, change: OutletSettingsChange): Promise<Result<null>> => {
        sent.push({ call: 'configure', args: [n, change] });
        return Promise.resolve(configured(n, change));
      },
    },
  };
}

function renderPanel(live = controllerState(), actions = recordingActions().actions) {
  return render(OutletsPanel, {
    controllerName: 'Bench A',
    user: 'tech',
    live,
    actions,
    favourites: [],
    onfavourite: () => undefined,
  });
}

/** Open a row's menu and find one of its items. */
async function menuItem(user: ReturnType<typeof userEvent.setup>, label: string, item: string | RegExp) {
  await user.click(screen.getByRole('button', { name: `More actions for ${label}` }));
  return screen.getByRole('menuitem', { name: item });
}

const row = (name: string) => screen.getByRole('listitem', { name: new RegExp(`Outlet \\d+: ${name}$`) });

afterEach(() => {
  vi.useRealTimers();
});

describe('outlet rows', () => {
  test('name an outlet the way the Core does: an unnamed or default-named one is just "outlet N"', () => {
    const outlets = controllerState().outlets.map((o) =>
      o.number === 3 ? { ...o, name: 'Outlet 3' } : o.number === 4 ? { ...o, name: '' } : o,
    );
    renderPanel(controllerState({ outlets }));
    expect(screen.getByRole('checkbox', { name: 'Select outlet 3' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select outlet 4' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select outlet 1 (Router)' })).toBeInTheDocument();
  });

  test('one power switch shows the physical state; its description gives all three', () => {
    renderPanel();
    const router = within(row('Router'));
    const power = router.getByRole('switch', { name: 'Power of outlet 1 (Router)' });
    expect(power).toHaveAttribute('aria-checked', 'true');
    expect(power).toHaveAccessibleDescription('Physical on, temporary on, saved on.');
    expect(within(row('Server')).getByRole('switch', { name: 'Power of outlet 2 (Server)' })).toHaveAttribute(
      'aria-checked',
      'false',
    );
    // One control for the power: no On/Off pair, no second switch.
    expect(router.getAllByRole('switch')).toHaveLength(1);
    expect(router.queryByRole('button', { name: /^Turn / })).toBeNull();
  });

  test('say saved and temporary in one line under the row only when they differ', () => {
    const live = controllerState();
    live.outlets[1] = outlet(2, { state: false, transientState: true, physicalState: true });
    renderPanel(live);
    const note = 'Temporarily on: saved state off, so it goes back to off when the controller restarts.';
    const server = within(row('Server'));
    expect(server.getByText(note)).toBeVisible();
    expect(server.getByRole('switch', { name: 'Power of outlet 2 (Server)' })).toHaveAccessibleDescription(
      note,
    );
    expect(within(row('Router')).queryByText(/^Temporarily/)).toBeNull();
  });

  test('show a pending change until the controller confirms it', async () => {
    const live = controllerState();
    live.outlets[1] = outlet(2, { pending: { kind: 'state', target: true, since: Date.now() } });
    const { rerender } = renderPanel(live);
    expect(
      within(row('Server')).getByText('Waiting for the controller to confirm: turning on…'),
    ).toBeInTheDocument();
    expect(row('Server')).toHaveAttribute('aria-busy', 'true');

    const confirmed = controllerState();
    confirmed.outlets[1] = outlet(2, { state: true, transientState: true, physicalState: true });
    await rerender({ live: confirmed });
    expect(within(row('Server')).queryByText(/Waiting for the controller/)).toBeNull();
    expect(within(row('Server')).getByRole('switch', { name: 'Power of outlet 2 (Server)' })).toHaveAttribute(
      'aria-checked',
      'true',
    );
  });

  test('a locked outlet explains itself and its controls are disabled with the reason', () => {
    const live = controllerState();
    live.outlets[2] = outlet(3, { locked: true });
    renderPanel(live);
    const sw = within(row('Switch'));
    expect(sw.getByRole('button', { name: 'Locked' })).toHaveAccessibleDescription(
      /only its keypad or its own web page can change this outlet/,
    );
    const off = sw.getByRole('switch', { name: 'Power of outlet 3 (Switch)' });
    expect(off).toBeDisabled();
    expect(off).toHaveAccessibleDescription(/only its keypad or its own web page/);
    const cycle = sw.getByRole('button', { name: 'Cycle outlet 3 (Switch)' });
    expect(cycle).toBeDisabled();
    expect(cycle).toHaveAccessibleDescription(/only its keypad or its own web page/);
    expect(sw.getByRole('checkbox', { name: 'Select outlet 3 (Switch)' })).toBeDisabled();
  });

  test('an outlet the user may not switch names the user and the way out', () => {
    const live = controllerState({ capabilities: capabilities({ isAdmin: false }) });
    live.outlets[3] = outlet(4, { access: false });
    renderPanel(live);
    const scope = within(row('Scope'));
    expect(
      scope.getByText(/User “tech” may not switch this outlet; an administrator can grant access/),
    ).toBeVisible();
    expect(scope.getByRole('switch', { name: 'Power of outlet 4 (Scope)' })).toBeDisabled();
    expect(screen.getByText(/Only an administrator can rename outlets/)).toBeInTheDocument();
  });

  test('an offline controller disables switching and says why once, not on every row', () => {
    renderPanel(controllerState({ status: 'offline' }));
    const reason =
      /The controller is offline: Plugboard keeps trying, and controls come back when it answers again/;
    const off = screen.getByRole('switch', { name: 'Power of outlet 1 (Router)' });
    expect(off).toBeDisabled();
    expect(off).toHaveAccessibleDescription(reason);
    const shown = screen.getAllByText(reason).filter((el) => !el.classList.contains('sr-only'));
    expect(shown).toHaveLength(1);
    expect(screen.getByText('The outlet states below are the last ones it reported.')).toBeVisible();
    expect(
      within(row('Router'))
        .queryAllByText(reason)
        .every((el) => el.classList.contains('sr-only')),
    ).toBe(true);
  });

  test('a cycle shows a countdown of the off-time', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2025-05-01T10:00:00Z'));
    const live = controllerState();
    live.outlets[4] = outlet(5, {
      physicalState: false,
      cycleDelay: 5,
      cycleEndsAt: Date.now() + 5000,
      pending: { kind: 'cycle', target: true, since: Date.now() },
    });
    renderPanel(live);
    const camera = within(row('Camera'));
    expect(camera.getByRole('timer')).toHaveTextContent('Off — back on in 5 s');
    // The countdown says it all: no "waiting to confirm", no saved/temporary chips that agree anyway.
    expect(row('Camera')).not.toHaveTextContent('Waiting for the controller');
    expect(row('Camera')).not.toHaveTextContent('Temporarily');
    await vi.advanceTimersByTimeAsync(2000);
    expect(camera.getByRole('timer')).toHaveTextContent('Off — back on in 3 s');
    await vi.advanceTimersByTimeAsync(3500);
    expect(camera.getByRole('timer')).toHaveTextContent('Turning back on…');
  });
});

describe('switching', () => {
  test('the power switch sets the saved state to the opposite of the relay; the menu switches temporarily', async () => {
    const user = userEvent.setup();
    const { sent, actions } = recordingActions();
    renderPanel(controllerState(), actions);
    await user.click(screen.getByRole('switch', { name: 'Power of outlet 2 (Server)' }));
    const temporary = await menuItem(user, 'outlet 1 (Router)', /^Switch off temporarily/);
    expect(temporary).toHaveTextContent('Until the controller restarts; then back to its saved state (on).');
    await user.click(temporary);
    expect(sent).toEqual([
      { call: 'set', args: [[2], true, false] },
      { call: 'set', args: [[1], false, true] },
    ]);
    // The menu closed, and the focus is back on its button.
    expect(screen.queryByRole('menu')).toBeNull();
    expect(screen.getByRole('button', { name: 'More actions for outlet 1 (Router)' })).toHaveFocus();
  });

  test('selected outlets are saved by default; the confirmation and the result say so', async () => {
    const user = userEvent.setup();
    const { sent, actions } = recordingActions();
    renderPanel(controllerState(), actions);
    await user.click(screen.getByRole('checkbox', { name: 'Select outlet 2 (Server)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select outlet 3 (Switch)' }));
    await user.click(screen.getByRole('checkbox', { name: 'Select outlet 6 (Fan)' }));
    expect(screen.getByText('3 of 8 selected')).toBeInTheDocument();
    const selection = screen.getByRole('group', { name: 'Switch selected' });
    await user.click(within(selection).getByRole('button', { name: 'Flip selected' }));
    const dialog = screen.getByRole('dialog', { name: 'Flip 3 outlets (saved)?' });
    expect(dialog).toHaveAccessibleDescription(/they stay so when the controller restarts/);
    expect(sent).toEqual([]);
    await user.click(within(dialog).getByRole('button', { name: 'Flip, saved' }));
    // Outlets 2 and 6 are off (flip → on), outlet 3 is on (flip → off); saved, not transient.
    expect(sent).toEqual([
      {
        call: 'switch',
        args: [
          [
            { outlet: 2, on: true },
            { outlet: 3, on: false },
            { outlet: 6, on: true },
          ],
          false,
        ],
      },
    ]);
    expect(screen.getByText(/^3 of 3 outlets flipped, saved: they stay so/)).toBeVisible();

    await user.click(
      screen.getByRole('checkbox', {
        name: 'Switch the selected outlets temporarily (until the controller restarts)',
      }),
    );
    await user.click(within(selection).getByRole('button', { name: 'Selected off' }));
    const temporary = screen.getByRole('dialog', { name: 'Switch 3 outlets off (temporary)?' });
    expect(temporary).toHaveAccessibleDescription(
      /go back to their saved states when the controller restarts/,
    );
    await user.click(within(temporary).getByRole('button', { name: 'Switch off, temporary' }));
    expect(sent[1]).toEqual({ call: 'set', args: [[2, 3, 6], false, true] });
    expect(
      screen.getByText(/^3 of 3 outlets switched off, temporary: they go back to their saved states/),
    ).toBeVisible();
  });

  test('an outlet that refuses shows its own error, the others do not', async () => {
    const user = userEvent.setup();
    const { actions } = recordingActions((outlets) => ({
      requested: outlets,
      failed: [{ outlet: 3, error: { code: 'LOCKED', message: 'Outlet 3 is locked on Bench A.' } }],
    }));
    renderPanel(controllerState(), actions);
    await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
    await user.click(screen.getByRole('button', { name: 'Selected on' }));
    await user.click(screen.getByRole('button', { name: 'Switch on, saved' }));
    const alert = within(row('Switch')).getByRole('alert');
    expect(alert).toHaveTextContent('The outlet is locked on the controller.');
    expect(alert).toHaveTextContent('Outlet 3 is locked on Bench A.');
    expect(alert).toHaveTextContent('What to do: Only the controller’s keypad or its own web page');
    expect(within(row('Router')).queryByRole('alert')).toBeNull();
  });

  test('all off asks first, names the critical outlets and needs them acknowledged', async () => {
    const user = userEvent.setup();
    const { sent, actions } = recordingActions();
    const live = controllerState();
    live.outlets[0] = outlet(1, { critical: true });
    live.outlets[6] = outlet(7, { critical: true });
    live.outlets[3] = outlet(4, { locked: true });
    renderPanel(live, actions);
    await user.click(screen.getByRole('button', { name: 'All off' }));

    const dialog = screen.getByRole('dialog', { name: 'Switch off all outlets of Bench A?' });
    expect(dialog).toHaveAccessibleDescription(
      /7 outlets will be switched off.*1 outlet that cannot be switched/,
    );
    const critical = within(dialog)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(critical).toEqual(['outlet 1 (Router)', 'outlet 7 (Lamp)']);
    const confirm = within(dialog).getByRole('button', { name: 'Switch all off' });
    expect(confirm).toBeDisabled();
    expect(sent).toEqual([]);

    await user.click(within(dialog).getByRole('checkbox', { name: /include the critical outlets/ }));
    await user.click(confirm);
    expect(sent).toEqual([{ call: 'set', args: [[1, 2, 3, 5, 6, 7, 8], false, false] }]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  test('all on is confirmed with Enter and cancelled with Escape', async () => {
    const user = userEvent.setup();
    const { sent, actions } = recordingActions();
    renderPanel(controllerState(), actions);
    await user.click(screen.getByRole('button', { name: 'All on' }));
    expect(screen.getByRole('dialog', { name: 'Switch on all outlets of Bench A?' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(sent).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'All on' }));
    expect(screen.getByRole('button', { name: 'Switch all on' })).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(sent).toEqual([{ call: 'set', args: ['all', true, false] }]);
  });

  test('switching off or cycling a critical outlet asks first; cancelling sends nothing', async () => {
    const user = userEvent.setup();
    const { sent, actions } = recordingActions();
    const live = controllerState();
    live.outlets[0] = outlet(1, { critical: true });
    renderPanel(live, actions);
    await user.click(screen.getByRole('switch', { name: 'Power of outlet 1 (Router)' }));
    expect(screen.getByRole('dialog', { name: 'Switch off outlet 1 (Router)?' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Cycle outlet 1 (Router)' }));
    const dialog = screen.getByRole('dialog', { name: 'Cycle outlet 1 (Router)?' });
    await user.click(within(dialog).getByRole('checkbox'));
    await user.click(within(dialog).getByRole('button', { name: 'Cycle' }));
    expect(sent).toEqual([{ call: 'cycle', args: [1] }]);
  });

  test('rename saves the new name (admin)', async () => {
    const user = userEvent.setup();
    const { sent, actions } = recordingActions();
    renderPanel(controllerState(), actions);
    await user.click(await menuItem(user, 'outlet 8 (Spare)', 'Rename…'));
    const input = screen.getByRole('textbox', { name: 'New name for outlet 8 (Spare)' });
    await user.clear(input);
    expect(screen.getByText('Enter a name.')).toBeInTheDocument();
    await user.type(input, 'Logic analyser{Enter}');
    expect(sent).toEqual([{ call: 'rename', args: [8, 'Logic analyser'] }]);
  });
});

describe('outlet settings', () => {
  test("change an outlet's cycle delay and critical flag from the row; only what changed is sent", async () => {
    const user = userEvent.setup();
    const { sent, actions } = recordingActions();
    renderPanel(controllerState(), actions);
    await user.click(await menuItem(user, 'outlet 8 (Spare)', /^Settings…/));
    const delay = screen.getByRole('textbox', { name: 'Cycle delay of outlet 8 (Spare) in seconds' });
    expect(delay).toHaveValue('');
    expect(screen.getByText(/Empty: use the relay’s \(4 s\)/)).toBeInTheDocument();
    await user.type(delay, '2.5');
    expect(screen.getByText(/whole seconds from 1 to 3600/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save' })).toBeDisabled();
    await user.clear(delay);
    await user.type(delay, '10');
    await user.click(screen.getByRole('checkbox', { name: 'Critical' }));
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(sent).toEqual([{ call: 'configure', args: [8, { cycleDelay: 10, critical: true }] }]);
    expect(screen.queryByRole('textbox', { name: /Cycle delay of/ })).toBeNull();
  });

  test('an empty cycle delay hands it back to the relay; a refusal is shown in the form', async () => {
    const user = userEvent.setup();
    const live = controllerState();
    live.outlets[1] = outlet(2, { cycleDelay: 12 });
    const { sent, actions } = recordingActions(undefined, () => ({
      ok: false,
      error: {
        code: 'FORBIDDEN',
        message: 'User "tech" may not change it.',
        action: 'Log in as an administrator.',
      },
    }));
    renderPanel(live, actions);
    await user.click(await menuItem(user, 'outlet 2 (Server)', /^Settings…/));
    const delay = screen.getByRole('textbox', { name: 'Cycle delay of outlet 2 (Server) in seconds' });
    expect(delay).toHaveValue('12');
    await user.clear(delay);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(sent).toEqual([{ call: 'configure', args: [2, { cycleDelay: null }] }]);
    expect(screen.getByText(/The settings of outlet 2 \(Server\) were not saved/)).toBeInTheDocument();
    expect(screen.getByText(/Log in as an administrator/)).toBeInTheDocument();
  });

  test('settings and rename are disabled with the reason for a user who is not an administrator', async () => {
    const user = userEvent.setup();
    const { sent, actions } = recordingActions();
    renderPanel(controllerState({ capabilities: capabilities({ isAdmin: false }) }), actions);
    const button = await menuItem(user, 'outlet 1 (Router)', /^Settings…/);
    expect(button).toHaveAttribute('aria-disabled', 'true');
    await user.click(button);
    expect(screen.queryByRole('form')).toBeNull();
    expect(screen.getByRole('menuitem', { name: 'Rename…' })).toHaveAttribute('aria-disabled', 'true');
    expect(sent).toEqual([]);
    expect(button).toHaveAttribute(
      'title',
      expect.stringMatching(/Only an administrator can rename outlets or change their settings/),
    );
  });
});

describe('keyboard', () => {
  test('arrow keys move to the same control on the next and previous outlet', async () => {
    const user = userEvent.setup();
    renderPanel();
    screen.getByRole('switch', { name: 'Power of outlet 1 (Router)' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('switch', { name: 'Power of outlet 2 (Server)' })).toHaveFocus();
    await user.keyboard('{ArrowDown}{ArrowUp}{ArrowUp}');
    expect(screen.getByRole('switch', { name: 'Power of outlet 1 (Router)' })).toHaveFocus();
  });

  test('arrows skip a locked outlet', async () => {
    const user = userEvent.setup();
    const live = controllerState();
    live.outlets[1] = outlet(2, { locked: true });
    renderPanel(live);
    screen.getByRole('button', { name: 'Cycle outlet 1 (Router)' }).focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('button', { name: 'Cycle outlet 3 (Switch)' })).toHaveFocus();
  });
});
