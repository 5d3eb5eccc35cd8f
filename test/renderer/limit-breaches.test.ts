/**
 * Meter limit breaches in the window (issue 16 item 11): the Core's list reaches "Needs attention" (a
 * place that stays whether or not anything is in it) and the controller's tab, follows
 * `meters/breaches` events, and Settings names meters by their names. Readings are shown with the digit
 * that decides the breach; a breach back inside says so while it waits out the hold time.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { LimitBreach } from '../../src-preload/model';
import App from '../../src-renderer/App.svelte';
import { DEFAULT_SETTINGS } from '../../src-renderer/lib/state/app-state.svelte';
import { controllerState, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

let backend: TestBackend;
const benchB = summary({ id: 'bench-b', name: 'Bench B', order: 1, colour: '#10b981' });
const hot: LimitBreach = {
  controllerId: 'bench-a',
  key: 'internal_temperature',
  name: 'Internal temperature',
  unit: '°C',
  side: 'above',
  value: 40,
  limit: 35,
  since: new Date(2026, 0, 5, 14, 3, 27).getTime(),
  insideSince: null,
};

function start(breaches: LimitBreach[] | Promise<unknown>, temperatureUnit: 'C' | 'F' = 'C') {
  backend.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({
      controllers: [summary(), benchB],
      states: [controllerState(), controllerState({ id: 'bench-b' })],
      settings: {
        ...DEFAULT_SETTINGS,
        temperatureUnit,
        meterThresholds: [{ controllerId: 'bench-a', key: 'internal_temperature', min: null, max: 35 }],
      },
    }),
  }));
  backend.answer('meters/breaches', () =>
    Array.isArray(breaches) ? { ok: true, value: breaches } : (breaches as never),
  );
  render(App);
}

beforeEach(() => {
  backend = new TestBackend();
  (window as { plugboard?: unknown }).plugboard = backend.api;
});
afterEach(() => delete (window as { plugboard?: unknown }).plugboard);

test('a breach shows in Needs attention and on its tab, in °F when chosen, and leaves with the event', async () => {
  const user = userEvent.setup();
  start([hot], 'F');
  const region = await screen.findByRole('region', { name: 'Needs attention' });
  await expect
    .poll(() => region.textContent)
    .toMatch(/Bench A: Internal temperature 104\.0 °F above the maximum of 95 °F\s*Outside since /);
  const tabA = screen.getByRole('tab', { name: /Bench A/ });
  expect(tabA).toHaveAccessibleName(/a meter outside its limits/);
  expect(screen.getByRole('tab', { name: /Bench B/ })).not.toHaveAccessibleName(/limits/);

  // A second breach on Bench A: the badge counts them.
  backend.emit('meters/breaches', [hot, { ...hot, key: 'buses.0.voltage', name: 'Voltage', unit: 'V' }]);
  await screen.findByRole('tab', { name: /2 meters outside their limits/ });

  // Gone, but the place stays where it was (the tiles below do not move).
  backend.emit('meters/breaches', []);
  await expect.poll(() => region.textContent).toMatch(/Nothing needs attention/);
  expect(screen.getByRole('tab', { name: /Bench A/ })).not.toHaveAccessibleName(/limits/);

  backend.emit('meters/breaches', [hot]);
  await expect.poll(() => within(region).queryByRole('button', { name: 'Open Bench A' })).not.toBeNull();
  await user.click(within(region).getByRole('button', { name: 'Open Bench A' }));
  expect(screen.getByRole('tab', { name: /Bench A/ })).toHaveAttribute('aria-selected', 'true');
});

test('an event that arrives before the first answer is not overwritten by the older answer', async () => {
  let answer: (value: unknown) => void = () => undefined;
  start(new Promise((resolve) => (answer = resolve)));
  await screen.findByRole('tab', { name: /Bench A/ });
  await expect.poll(() => backend.listening('meters/breaches')).toBe(1);
  backend.emit('meters/breaches', [hot]);
  answer({ ok: true, value: [] });
  await new Promise((resolve) => setTimeout(resolve, 0));
  expect(await screen.findByRole('region', { name: 'Needs attention' })).toHaveTextContent(
    'Internal temperature 40.0 °C above the maximum of 35 °C',
  );
});

test('Settings names a limited meter by the name the controller gives it', async () => {
  const user = userEvent.setup();
  start([]);
  await screen.findByRole('tab', { name: /Bench A/ });
  await user.click(screen.getByRole('button', { name: 'Settings' }));
  const limits = await screen.findByRole('group', { name: 'Meter limits' });
  expect(within(limits).getByRole('listitem')).toHaveTextContent(
    'Bench A, Internal temperature: at most 35.0 °C',
  );
});

test('a reading shows the digit that decides it, and a breach back inside says it is waiting out the hold time', async () => {
  const volts: LimitBreach = {
    ...hot,
    key: 'buses.0.voltage',
    name: 'AC voltage',
    unit: 'V',
    value: 120.53,
    limit: 120.5,
  };
  start([volts]);
  const region = await screen.findByRole('region', { name: 'Needs attention' });
  await expect.poll(() => region.textContent).toMatch(/AC voltage 120\.53 V above the maximum of 120\.5 V/);
  backend.emit('meters/breaches', [{ ...volts, insideSince: volts.since + 4000 }]);
  await expect
    .poll(() => region.textContent)
    .toMatch(/Back inside since .+; this ends once it stays inside for 15 s\./);
});

test('the same limit crossed on several controllers is one message naming them', async () => {
  start([hot, { ...hot, controllerId: 'bench-b', value: 41 }]);
  const region = await screen.findByRole('region', { name: 'Needs attention' });
  await expect
    .poll(() =>
      within(region)
        .queryAllByRole('listitem')
        .map((li) => li.textContent?.replace(/\s+/g, ' ').trim()),
    )
    .toEqual([
      expect.stringMatching(
        /^Internal temperature above the maximum on 2 controllers: Bench A and Bench B Outside since .+ \(the first of them\)\.$/,
      ),
    ]);
});
