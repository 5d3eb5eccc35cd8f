import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Reservation } from '../../src-preload/model';
import OutletsPanel from '../../src-renderer/lib/panels/OutletsPanel.svelte';
import OverviewController from '../../src-renderer/lib/components/OverviewController.svelte';
import { ConfirmGate } from '../../src-renderer/lib/state/confirm-gate.svelte';
import { ReservationsState } from '../../src-renderer/lib/state/reservations.svelte';
import { controllerState, summary } from './fixtures';
import { TestBackend } from './test-backend';

const HOUR = 3_600_000;

/** What the Core fixed when it was taken: group "g" had outlet 5 of Bench A then. */
function coversOf(target: Reservation['target']): Reservation['covers'] {
  if (target.kind === 'group') return [{ controllerId: 'bench-a', outlet: 5 }];
  return [{ controllerId: target.controllerId, outlet: target.kind === 'outlet' ? target.outlet : null }];
}

function reservation(holder: string, target: Reservation['target'], id = 'r-1'): Reservation {
  const now = Date.now();
  return {
    id,
    target,
    covers: coversOf(target),
    holder,
    door: 'window',
    reason: 'flashing firmware',
    createdAt: now,
    expiresAt: now + HOUR,
  };
}

/** A ReservationsState over a test backend: this window holds reservations as "me". */
async function reservationsWith(list: Reservation[]) {
  const backend = new TestBackend()
    .answer('reservations/list', () => ({ ok: true, value: list }))
    .answer('reservations/holder', () => ({ ok: true, value: { holder: 'me' } }));
  const state = new ReservationsState(backend.api);
  state.start();
  await state.load();
  return { backend, state };
}

function renderPanel(reservations: ReservationsState) {
  const sent: unknown[] = [];
  const ok = (outlets: number[]) =>
    Promise.resolve({ ok: true as const, value: { requested: outlets, failed: [] } });
  render(OutletsPanel, {
    controllerName: 'Bench A',
    user: 'tech',
    live: controllerState(),
    actions: {
      set: (outlets: number[] | 'all', on: boolean) => (sent.push(['set', outlets, on]), ok([1])),
      cycle: (n: number) => (sent.push(['cycle', n]), ok([n])),
      switchMany: () => ok([]),
      rename: () => Promise.resolve({ ok: true as const, value: null }),
      configure: () => Promise.resolve({ ok: true as const, value: null }),
    },
    favourites: [],
    onfavourite: () => undefined,
    reservations,
  });
  return sent;
}

const row = (name: string) => screen.getByRole('listitem', { name: new RegExp(`Outlet \\d+: ${name}$`) });

describe('reservations in the window', () => {
  test('someone else’s reservation greys out the switches and says who holds it, until when and why', async () => {
    const { state } = await reservationsWith([
      reservation('alice', { kind: 'outlet', controllerId: 'bench-a', outlet: 3 }),
      reservation('bob', { kind: 'group', groupId: 'g' }, 'r-2'),
    ]);
    const sent = renderPanel(state);
    const switchRow = within(row('Switch'));
    const on = switchRow.getByRole('switch', { name: 'Power of outlet 3 (Switch)' });
    expect(on).toBeDisabled();
    expect(on).toHaveAccessibleDescription(
      /^Physical \w+, temporary \w+, saved \w+\. Reserved by alice until \d{1,2}:\d{2}.*: flashing firmware\. Ask alice, or break the reservation\.$/,
    );
    expect(switchRow.getByRole('button', { name: 'Cycle outlet 3 (Switch)' })).toBeDisabled();
    expect(switchRow.getByRole('button', { name: 'Break reservation of outlet 3 (Switch)' })).toBeEnabled();
    // A group's reservation covers its members; the other outlets are free.
    expect(within(row('Camera')).getByRole('button', { name: 'Cycle outlet 5 (Camera)' })).toBeDisabled();
    const free = within(row('Server')).getByRole('switch', { name: 'Power of outlet 2 (Server)' });
    expect(free).toBeEnabled();
    await userEvent.click(free);
    expect(sent).toEqual([['set', [2], true]]);
  });

  test('Reserve… asks for a reason and a duration; the holder’s own reservation offers Release', async () => {
    const { backend, state } = await reservationsWith([]);
    const mine = reservation('me', { kind: 'outlet', controllerId: 'bench-a', outlet: 1 }, 'r-9');
    backend.answer('reservations/take', () => ({ ok: true, value: mine }));
    backend.answer('reservations/release', () => ({ ok: true, value: null }));
    renderPanel(state);
    const router = within(row('Router'));
    await userEvent.click(router.getByRole('button', { name: 'Reserve outlet 1 (Router)' }));
    const reserve = router.getByRole('button', { name: 'Reserve' });
    const reason = router.getByRole('textbox', { name: 'Why you reserve outlet 1 (Router)' });
    // Not marked wrong before anything is typed; sent empty, it says what is missing and sends nothing.
    expect(reason).toHaveAttribute('aria-invalid', 'false');
    await userEvent.click(reserve);
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(router.getByText('Give a reason.')).toBeInTheDocument();
    expect(backend.callsOf('reservations/take')).toEqual([]);
    await userEvent.type(
      router.getByRole('textbox', { name: 'Why you reserve outlet 1 (Router)' }),
      'bisecting',
    );
    await userEvent.selectOptions(
      router.getByRole('combobox', { name: 'How long to reserve outlet 1 (Router)' }),
      '2 hours',
    );
    await userEvent.click(reserve);
    expect(backend.callsOf('reservations/take')).toEqual([
      {
        target: { kind: 'outlet', controllerId: 'bench-a', outlet: 1 },
        reason: 'bisecting',
        durationMs: 2 * HOUR,
      },
    ]);
    expect(router.getByText(/^Reserved by you until .*: flashing firmware$/)).toBeInTheDocument();
    // The holder may still switch.
    expect(router.getByRole('button', { name: 'Cycle outlet 1 (Router)' })).toBeEnabled();
    await userEvent.click(
      router.getByRole('button', { name: 'Release the reservation of outlet 1 (Router)' }),
    );
    expect(backend.callsOf('reservations/release')).toEqual([{ id: 'r-9' }]);
    expect(router.getByRole('button', { name: 'Reserve outlet 1 (Router)' })).toBeInTheDocument();
  });

  test('Break reservation… needs a reason; a refusal from main is shown, and the list follows reservations/changed', async () => {
    const held = reservation('alice', { kind: 'controller', controllerId: 'bench-a' });
    const { backend, state } = await reservationsWith([held]);
    backend.answer('reservations/break', () => ({
      ok: false,
      error: { code: 'NOT_FOUND', message: 'There is no current reservation r-1.' },
    }));
    renderPanel(state);
    await userEvent.click(screen.getByRole('button', { name: 'Break reservation of Bench A' }));
    await userEvent.type(
      screen.getByRole('textbox', { name: 'Why you break the reservation of Bench A' }),
      'lab needs it',
    );
    await userEvent.click(screen.getByRole('button', { name: 'Break' }));
    expect(backend.callsOf('reservations/break')).toEqual([{ id: 'r-1', reason: 'lab needs it' }]);
    expect(screen.getByText('There is no current reservation r-1.')).toBeInTheDocument();
    expect(within(row('Router')).getByRole('switch', { name: 'Power of outlet 1 (Router)' })).toBeDisabled();
    backend.emit('reservations/changed', []);
    await expect
      .poll(() => within(row('Router')).getByRole('switch', { name: 'Power of outlet 1 (Router)' }))
      .toBeEnabled();
  });

  test('the Overview greys out someone else’s reserved outlets and names the holder of a whole controller', async () => {
    const { state } = await reservationsWith([
      reservation('alice', { kind: 'controller', controllerId: 'bench-a' }),
    ]);
    render(OverviewController, {
      summary: summary({ id: 'bench-a', name: 'Bench A' }),
      live: controllerState(),
      actions: { set: () => Promise.resolve({ ok: true as const, value: { requested: [], failed: [] } }) },
      gate: new ConfirmGate(),
      onopen: () => undefined,
      reservations: state,
    });
    expect(
      screen.getByText(/^Reserved by alice until .*: flashing firmware$/, { selector: 'p' }),
    ).toBeVisible();
    for (const button of within(screen.getByRole('list', { name: 'Outlets of Bench A' })).getAllByRole(
      'button',
    ))
      expect(button).toHaveAttribute('aria-disabled', 'true');
  });

  test('one reserved outlet: the controller is not reserved as a whole, and the Overview names the outlet', async () => {
    const { state } = await reservationsWith([
      reservation('alice', { kind: 'outlet', controllerId: 'bench-a', outlet: 3 }),
    ]);
    renderPanel(state);
    // The toolbar offers to reserve the controller, not to break a reservation of it.
    expect(screen.getByRole('button', { name: 'Reserve Bench A' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Break reservation of Bench A' })).toBeNull();
    expect(
      within(row('Switch')).getByRole('button', { name: 'Break reservation of outlet 3 (Switch)' }),
    ).toBeEnabled();
    expect(within(row('Router')).getByRole('button', { name: 'Reserve outlet 1 (Router)' })).toBeEnabled();
    document.body.innerHTML = '';

    render(OverviewController, {
      summary: summary({ id: 'bench-a', name: 'Bench A' }),
      live: controllerState(),
      actions: { set: () => Promise.resolve({ ok: true as const, value: { requested: [], failed: [] } }) },
      gate: new ConfirmGate(),
      onopen: () => undefined,
      reservations: state,
    });
    expect(
      screen.getByText(/^Outlet 3 \(Switch\) reserved by alice until .*: flashing firmware$/, {
        selector: 'p',
      }),
    ).toBeVisible();
    expect(screen.queryByText(/^Reserved by alice/, { selector: 'p' })).toBeNull();
  });
});
