import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { MeterHistory, Result, Settings } from '../../src-preload/model';
import MetersPanel from '../../src-renderer/lib/panels/MetersPanel.svelte';
import { DEFAULT_SETTINGS } from '../../src-renderer/lib/state/app-state.svelte';
import { controllerState } from './fixtures';
import { TestBackend } from './test-backend';

function meterActions(csv = 'time,key,value\n1,buses.0.voltage,118.6\n') {
  const asked: string[] = [];
  return {
    asked,
    actions: {
      meterHistory: async (key: string): Promise<Result<MeterHistory>> => {
        asked.push(key);
        return { ok: true, value: { key, unit: 'V', t: [1_700_000_000, 1_700_000_015], v: [118.1, 119.3] } };
      },
      exportCsv: async () => ({ ok: true as const, value: { filename: 'bench-a-meters.csv', csv } }),
    },
  };
}

const settings = (overrides: Partial<Settings> = {}): Settings => ({ ...DEFAULT_SETTINGS, ...overrides });
const tile = (name: RegExp) => screen.getByRole('button', { name });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('meters panel', () => {
  test('tiles show voltage, current, energy, temperatures and humidity in °C', () => {
    render(MetersPanel, {
      controllerName: 'Bench A',
      live: controllerState(),
      settings: settings(),
      actions: meterActions().actions,
      onthreshold: async () => ({ ok: true, value: settings() }),
    });
    expect(tile(/^Voltage/)).toHaveTextContent('118.6 V');
    // One bus: nothing to tell apart, so no "(bus 1)".
    expect(tile(/^Voltage/)).not.toHaveTextContent('bus');
    // Real units report no current as 1.4e-45; a person sees zero.
    expect(tile(/^Current/)).toHaveTextContent('0.00 A');
    expect(tile(/^Energy/)).toHaveTextContent('12.346 kWh');
    expect(tile(/^Internal temperature/)).toHaveTextContent('40.0 °C');
    expect(tile(/^Sensor temperature/)).toHaveTextContent('21.5 °C');
    expect(tile(/^Humidity/)).toHaveTextContent('45 %');
  });

  test('a controller with two buses names the bus of each reading', () => {
    const live = controllerState();
    live.meters = [
      { key: 'buses.0.voltage', name: 'Voltage', quantity: 'voltage', bus: 0, value: 118.6, unit: 'V' },
      { key: 'buses.1.voltage', name: 'Voltage', quantity: 'voltage', bus: 1, value: 121.2, unit: 'V' },
    ];
    render(MetersPanel, {
      controllerName: 'Bench A',
      live,
      settings: settings(),
      actions: meterActions().actions,
      onthreshold: async () => ({ ok: true, value: settings() }),
    });
    expect(tile(/^Voltage \(bus 1\)/)).toHaveTextContent('118.6 V');
    expect(tile(/^Voltage \(bus 2\)/)).toHaveTextContent('121.2 V');
  });

  test('temperatures follow the °F setting, other quantities do not change', () => {
    render(MetersPanel, {
      controllerName: 'Bench A',
      live: controllerState(),
      settings: settings({ temperatureUnit: 'F' }),
      actions: meterActions().actions,
      onthreshold: async () => ({ ok: true, value: settings() }),
    });
    expect(tile(/^Internal temperature/)).toHaveTextContent('104.0 °F');
    expect(tile(/^Sensor temperature/)).toHaveTextContent('70.7 °F');
    expect(tile(/^Voltage/)).toHaveTextContent('118.6 V');
  });

  test('says so when the controller has no meters', () => {
    render(MetersPanel, {
      controllerName: 'Bench A',
      live: controllerState({ meters: null }),
      settings: settings(),
      actions: meterActions().actions,
      onthreshold: async () => ({ ok: true, value: settings() }),
    });
    expect(screen.getByText('No meters on this controller.')).toBeVisible();
    expect(screen.queryByRole('button', { name: 'Export CSV' })).toBeNull();
  });

  test('the chosen meter’s history loads and is summarised for screen readers', async () => {
    const user = userEvent.setup();
    const { asked, actions } = meterActions();
    render(MetersPanel, {
      controllerName: 'Bench A',
      live: controllerState(),
      settings: settings(),
      actions,
      onthreshold: async () => ({ ok: true, value: settings() }),
    });
    // The core's history plus the reading of the latest poll.
    expect(
      await screen.findByText(/Voltage since .*: latest 118\.60 V, lowest 118\.10 V, highest 119\.30 V/),
    ).toBeVisible();
    await user.click(tile(/^Humidity/));
    expect(tile(/^Humidity/)).toHaveAttribute('aria-pressed', 'true');
    expect(asked).toEqual(['buses.0.voltage', 'sensors.0.humidity']);
  });

  test('every newer poll adds a live point to the chart', async () => {
    const live = controllerState({ lastUpdate: 1_700_000_100_000 });
    const { rerender } = render(MetersPanel, {
      controllerName: 'Bench A',
      live,
      settings: settings(),
      actions: meterActions().actions,
      onthreshold: async () => ({ ok: true, value: settings() }),
    });
    expect(await screen.findByText(/latest 118\.60 V, lowest 118\.10 V, highest 119\.30 V/)).toBeVisible();
    const next = controllerState({ lastUpdate: 1_700_000_115_000 });
    next.meters![0]!.value = 121.25;
    await rerender({ live: next });
    expect(screen.getByText(/latest 121\.25 V, lowest 118\.10 V, highest 121\.25 V/)).toBeVisible();
  });

  test('a reading outside its limits (as the Core judges it) is marked on its tile; one inside says its limits', async () => {
    const backend = new TestBackend().answer('meters/breaches', () => ({
      ok: true,
      value: [
        {
          controllerId: 'bench-a',
          key: 'internal_temperature',
          name: 'Internal temperature',
          unit: '°C',
          side: 'above',
          value: 40,
          limit: 35,
          since: 1_700_000_000_000,
          insideSince: null,
        },
      ],
    }));
    vi.stubGlobal('plugboard', backend.api);
    render(MetersPanel, {
      controllerName: 'Bench A',
      live: controllerState(),
      settings: settings({
        temperatureUnit: 'F',
        meterThresholds: [
          { controllerId: 'bench-a', key: 'internal_temperature', min: null, max: 35 },
          { controllerId: 'bench-a', key: 'sensors.0.temperature', min: 10, max: 60 },
        ],
      }),
      actions: meterActions().actions,
      onthreshold: async () => ({ ok: true, value: settings() }),
    });
    await expect
      .poll(() => tile(/^Internal temperature/).textContent)
      .toContain('Above the maximum of 95 °F');
    expect(tile(/^Sensor temperature/)).toHaveTextContent('Limits: 50.0 °F to 140.0 °F');
    expect(tile(/^Sensor temperature/)).not.toHaveTextContent('Above');
  });

  test('a poll arriving while a limit is being typed keeps what was typed', async () => {
    const user = userEvent.setup();
    const saved: unknown[] = [];
    const { rerender } = render(MetersPanel, {
      controllerName: 'Bench A',
      live: controllerState({ lastUpdate: 1_700_000_100_000 }),
      settings: settings(),
      actions: meterActions().actions,
      onthreshold: async (t) => {
        saved.push(t);
        return { ok: true, value: settings() };
      },
    });
    const limits = screen.getByRole('form', { name: 'Limits for Voltage' });
    await user.type(within(limits).getByLabelText(/Maximum/), '125');
    // The next poll: the same meters, newly read.
    const next = controllerState({ lastUpdate: 1_700_000_101_000 });
    next.meters![0]!.value = 118.9;
    await rerender({ live: next });
    expect(within(limits).getByLabelText(/Maximum/)).toHaveValue('125');
    await user.click(within(limits).getByRole('button', { name: 'Save limits' }));
    expect(saved).toEqual([{ controllerId: 'bench-a', key: 'buses.0.voltage', min: null, max: 125 }]);
  });

  test('limits typed in °F are saved in °C', async () => {
    const user = userEvent.setup();
    const saved: unknown[] = [];
    render(MetersPanel, {
      controllerName: 'Bench A',
      live: controllerState(),
      settings: settings({ temperatureUnit: 'F' }),
      actions: meterActions().actions,
      onthreshold: async (t) => {
        saved.push(t);
        return { ok: true, value: settings() };
      },
    });
    await user.click(tile(/^Internal temperature/));
    const limits = screen.getByRole('form', { name: 'Limits for Internal temperature' });
    await user.type(within(limits).getByLabelText(/Maximum/), '113');
    await user.click(within(limits).getByRole('button', { name: 'Save limits' }));
    expect(saved).toEqual([{ controllerId: 'bench-a', key: 'internal_temperature', min: null, max: 45 }]);
    expect(within(limits).getByRole('status')).toHaveTextContent('Limits saved.');
  });

  test('CSV export saves the text the core produced as a file', async () => {
    const user = userEvent.setup();
    const blobs: Blob[] = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: (b: Blob) => (blobs.push(b), 'blob:csv'),
        revokeObjectURL: () => undefined,
      }),
    );
    const clicked: string[] = [];
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
      this: HTMLAnchorElement,
    ) {
      clicked.push(`${this.download} ${this.href}`);
    });
    render(MetersPanel, {
      controllerName: 'Bench A',
      live: controllerState(),
      settings: settings(),
      actions: meterActions('t,v\n1,2\n').actions,
      onthreshold: async () => ({ ok: true, value: settings() }),
    });
    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    click.mockRestore();
    expect(clicked).toEqual(['bench-a-meters.csv blob:csv']);
    expect(await blobs[0]!.text()).toBe('t,v\n1,2\n');
    expect(blobs[0]!.type).toBe('text/csv;charset=utf-8');
  });
});
