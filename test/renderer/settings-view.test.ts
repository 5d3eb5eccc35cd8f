import { fireEvent, render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import { parseInput, type CallInput } from '../../src-preload/contract';
import type { Result, Settings } from '../../src-preload/model';
import SettingsView from '../../src-renderer/lib/components/SettingsView.svelte';
import { DEFAULT_SETTINGS } from '../../src-renderer/lib/state/app-state.svelte';

function renderSettings(settings: Settings = DEFAULT_SETTINGS, answer?: Result<Settings>) {
  const saved: CallInput<'settings/set'>[] = [];
  const view = render(SettingsView, {
    settings,
    describe: (id: string, outlet?: number) =>
      `${id === 'bench-a' ? 'Bench A' : id}${outlet ? `, outlet ${outlet}` : ''}`,
    onsave: async (patch: CallInput<'settings/set'>) => {
      saved.push(patch);
      return answer ?? { ok: true, value: { ...settings, ...patch } as Settings };
    },
  });
  return { saved, ...view };
}

test('the poll interval is typed in seconds, checked, and saved in ms', async () => {
  const user = userEvent.setup();
  const { saved } = renderSettings();
  const field = screen.getByRole('spinbutton', { name: /every \(seconds\)/ });
  expect(field).toHaveValue(3);
  await user.clear(field);
  await user.type(field, '0.2');
  await fireEvent.change(field);
  expect(screen.getByText('Choose between 0.5 and 600 seconds.')).toBeVisible();
  expect(saved).toEqual([]);
  await user.clear(field);
  await user.type(field, '1.5');
  await fireEvent.change(field);
  expect(saved).toEqual([{ pollIntervalMs: 1500 }]);
});

test('units, theme and notifications save as soon as they change', async () => {
  const user = userEvent.setup();
  const { saved } = renderSettings();
  await user.click(screen.getByRole('radio', { name: '°F (Fahrenheit)' }));
  await user.click(screen.getByRole('radio', { name: 'Dark' }));
  await user.click(screen.getByRole('checkbox', { name: 'Someone switches an outlet outside Plugboard' }));
  expect(saved).toEqual([
    { temperatureUnit: 'F' },
    { theme: 'dark' },
    { notifications: { offline: true, outsideChanges: false, meterThresholds: true } },
  ]);
});

test('tray favourites are listed by name and can be unpinned', async () => {
  const user = userEvent.setup();
  const { saved } = renderSettings({
    ...DEFAULT_SETTINGS,
    trayFavourites: [
      { controllerId: 'bench-a', outlet: 2 },
      { controllerId: 'bench-a', outlet: 5 },
    ],
  });
  const favourites = screen.getByRole('group', { name: 'Tray favourites' });
  expect(
    within(favourites)
      .getAllByRole('listitem')
      .map((li) => li.textContent?.trim()),
  ).toEqual(['Bench A, outlet 2', 'Bench A, outlet 5']);
  await user.click(within(favourites).getByRole('button', { name: 'Unpin Bench A, outlet 2' }));
  expect(saved).toEqual([{ trayFavourites: [{ controllerId: 'bench-a', outlet: 5 }] }]);
});

test('meter limits are listed by meter name in the chosen units, and can be removed', async () => {
  const user = userEvent.setup();
  const voltage = { controllerId: 'bench-a', key: 'buses.0.voltage', min: 110, max: null };
  const humidity = { controllerId: 'rack-7', key: 'sensors.0.relative_humidity', min: 20, max: 60 };
  const temperature = { controllerId: 'bench-a', key: 'sensors.0.temperature', min: null, max: 30 };
  const platform = { controllerId: 'bench-a', key: 'mains_voltage', min: 100, max: 130 };
  const { saved } = renderSettings({
    ...DEFAULT_SETTINGS,
    temperatureUnit: 'F',
    meterThresholds: [voltage, humidity, temperature, platform],
  });
  const limits = screen.getByRole('group', { name: 'Meter limits' });
  expect(
    within(limits)
      .getAllByRole('listitem')
      .map((li) => li.textContent?.trim()),
  ).toEqual([
    'Bench A, Voltage (bus 1): at least 110.0 V',
    'rack-7, Humidity (sensor 1): 20 % to 60 %',
    'Bench A, Temperature (sensor 1): at most 86.0 °F',
    'Bench A, Mains voltage: 100.0 V to 130.0 V',
  ]);
  expect(limits).not.toHaveTextContent(/canonical|buses\.0/);
  await user.click(
    within(limits).getByRole('button', { name: 'Remove the limits of Bench A, Voltage (bus 1)' }),
  );
  expect(saved).toEqual([{ meterThresholds: [humidity, temperature, platform] }]);
});

test('empty favourites and limits say where to add them', () => {
  renderSettings();
  expect(screen.getByRole('group', { name: 'Tray favourites' })).toHaveTextContent(
    'None yet. Pin an outlet with the star on its row in a controller’s Outlets tab.',
  );
  expect(screen.getByRole('group', { name: 'Meter limits' })).toHaveTextContent(
    'None yet. Set limits under a meter in a controller’s Meters tab.',
  );
  expect(screen.queryAllByRole('list')).toEqual([]);
});

test('a refused setting is explained in place', async () => {
  const user = userEvent.setup();
  renderSettings(DEFAULT_SETTINGS, {
    ok: false,
    error: {
      code: 'BAD_INPUT',
      message: 'Invalid input for settings/set: theme must be system, light or dark.',
    },
  });
  await user.click(screen.getByRole('radio', { name: 'Light' }));
  const alert = screen.getByRole('alert');
  expect(alert).toHaveTextContent('The setting was not saved.');
  expect(alert).toHaveTextContent('theme must be system, light or dark');
});

test("the activity log's retention is typed in days, within the contract's bounds, and says what it does", async () => {
  const user = userEvent.setup();
  const { saved } = renderSettings();
  const field = screen.getByRole('spinbutton', { name: 'Keep each entry of the activity log for (days)' });
  expect(screen.getByRole('group', { name: 'Activity log' })).toContainElement(field);
  expect(field).toHaveValue(DEFAULT_SETTINGS.activityRetentionDays);
  expect(field).toHaveAccessibleDescription(/Entries older than this leave the lab store/);
  // The field's bounds are the ones the Core accepts, no narrower and no wider.
  const [min, max] = [Number(field.getAttribute('min')), Number(field.getAttribute('max'))];
  const accepts = (days: number) => parseInput('settings/set', { activityRetentionDays: days }).ok;
  expect([accepts(min - 1), accepts(min), accepts(max), accepts(max + 1)]).toEqual([
    false,
    true,
    true,
    false,
  ]);
  for (const typed of [String(min - 1), String(max + 1), '2.5']) {
    await user.clear(field);
    await user.type(field, typed);
    await fireEvent.change(field);
    expect(screen.getByText(`Enter whole days from ${min} to ${max}.`)).toBeVisible();
  }
  expect(saved).toEqual([]);
  await user.clear(field);
  await user.type(field, '90');
  await fireEvent.change(field);
  expect(saved).toEqual([{ activityRetentionDays: 90 }]);
});

test("the meter limits' hold time is still typed in whole seconds from 0 to 3600", async () => {
  const user = userEvent.setup();
  const { saved } = renderSettings();
  const field = screen.getByRole('spinbutton', { name: /outside its limits after/ });
  expect(field).toHaveValue(DEFAULT_SETTINGS.meterLimitHoldSeconds);
  await user.clear(field);
  await user.type(field, '3601');
  await fireEvent.change(field);
  expect(screen.getByText('Enter whole seconds from 0 to 3600.')).toBeVisible();
  await user.clear(field);
  await user.type(field, '0');
  await fireEvent.change(field);
  expect(saved).toEqual([{ meterLimitHoldSeconds: 0 }]);
});

test("a publishing unit's safety read is typed in whole seconds from 5 to 600 and saved in ms", async () => {
  const user = userEvent.setup();
  const { saved } = renderSettings();
  const field = screen.getByRole('spinbutton', { name: /unit that publishes its changes/ });
  expect(field).toHaveValue(30);
  await user.clear(field);
  await user.type(field, '2');
  await fireEvent.change(field);
  expect(screen.getByText('Enter whole seconds from 5 to 600.')).toBeVisible();
  expect(saved).toEqual([]);
  await user.clear(field);
  await user.type(field, '60');
  await fireEvent.change(field);
  expect(saved).toEqual([{ unitSafetyPollMs: 60_000 }]);
  expect(parseInput('settings/set', saved[0]).ok).toBe(true);
});
