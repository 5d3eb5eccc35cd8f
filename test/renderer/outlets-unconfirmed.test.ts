/** A switch whose answer never came: the panel says so while those outlets are pending, then stops. */
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { OutletActionResult, Result } from '../../src-preload/model';
import OutletsPanel from '../../src-renderer/lib/panels/OutletsPanel.svelte';
import { controllerState, outlet } from './fixtures';

test('outlets not confirmed yet are named as pending until a reading settles them', async () => {
  const user = userEvent.setup();
  const reply = (outlets: number[]): Promise<Result<OutletActionResult>> =>
    Promise.resolve({ ok: true, value: { requested: outlets, failed: [], unconfirmed: [2, 3] } });
  const { rerender } = render(OutletsPanel, {
    controllerName: 'Bench A',
    user: 'tech',
    live: controllerState(),
    actions: {
      set: (outlets) => reply(outlets === 'all' ? [1, 2, 3, 4, 5, 6, 7, 8] : [...outlets]),
      cycle: (n) => reply([n]),
      switchMany: (changes) => reply(changes.map((c) => c.outlet)),
      rename: () => Promise.resolve({ ok: true as const, value: null }),
      configure: () => Promise.resolve({ ok: true as const, value: null }),
    },
    favourites: [],
    onfavourite: () => undefined,
  });
  await user.click(screen.getByRole('checkbox', { name: 'Select all' }));
  await user.click(screen.getByRole('button', { name: 'Selected on' }));
  await user.click(screen.getByRole('button', { name: 'Switch on, saved' }));

  const waiting = controllerState();
  for (const n of [2, 3]) {
    waiting.outlets[n - 1] = outlet(n, {
      pending: { kind: 'state', target: true, since: Date.now() },
    });
  }
  await rerender({ live: waiting });
  expect(screen.getByText(/did not answer in time/)).toHaveTextContent(
    'Bench A did not answer in time. Outlets 2, 3 stay pending until the next reading shows whether the change happened',
  );
  // No error is shown for them: they are neither done nor failed.
  expect(screen.queryByRole('alert')).toBeNull();

  const settled = controllerState();
  settled.outlets[2] = outlet(3, { pending: { kind: 'transientState', target: true, since: Date.now() } });
  await rerender({ live: settled });
  expect(screen.getByText(/did not answer in time/)).toHaveTextContent('Outlet 3 stays pending');
  await rerender({ live: controllerState() });
  expect(screen.queryByText(/did not answer in time/)).toBeNull();
});
