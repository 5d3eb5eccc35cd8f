/**
 * The meter charts (issue 16 item 11): axis labels that never collide at any width, limit lines, several
 * series with a legend (one chart per unit), and the time range.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MeterHistory, Result, Settings } from '../../src-preload/model';
import MeterChart from '../../src-renderer/lib/components/MeterChart.svelte';
import MetersPanel from '../../src-renderer/lib/panels/MetersPanel.svelte';
import { labelWidth, LABEL_GAP, LABEL_PX, timeTicks, valueTicks } from '../../src-renderer/lib/meter-chart';
import { DEFAULT_SETTINGS } from '../../src-renderer/lib/state/app-state.svelte';
import { controllerState } from './fixtures';

const NOW = 1_700_000_000;

/** Label boxes [left, right] along the axis, as a browser would lay them out centred on each tick. */
function boxes(ticks: { labelAt: number; label: string }[]): [number, number][] {
  return ticks.map((t) => [t.labelAt - labelWidth(t.label) / 2, t.labelAt + labelWidth(t.label) / 2]);
}

describe('time axis', () => {
  const spans = { '2 min': 120, '1 h': 3600, '24 h': 86_400, '3 days': 3 * 86_400 };
  for (const [name, span] of Object.entries(spans)) {
    test(`no two labels overlap or leave the axis from 200 to 1200 px (${name})`, () => {
      let fewest = Number.POSITIVE_INFINITY;
      let most = 0;
      for (let width = 200; width <= 1200; width += 10) {
        const ticks = timeTicks(NOW - span, NOW, width);
        expect(ticks.length, `${width} px`).toBeGreaterThanOrEqual(2);
        const laid = boxes(ticks);
        // Each label stays by its tick (moved inwards at most half its width at an end).
        for (const t of ticks)
          expect(Math.abs(t.labelAt - t.at)).toBeLessThanOrEqual(labelWidth(t.label) / 2);
        for (const [left, right] of laid) {
          expect(left).toBeGreaterThanOrEqual(0);
          expect(right).toBeLessThanOrEqual(width);
        }
        for (let i = 1; i < laid.length; i++)
          expect(laid[i]![0] - laid[i - 1]![1]).toBeGreaterThanOrEqual(LABEL_GAP);
        fewest = Math.min(fewest, ticks.length);
        most = Math.max(most, ticks.length);
      }
      // Thinned on narrow charts, more labels on wide ones.
      expect(most).toBeGreaterThan(fewest);
    });
  }

  test('labels show seconds only when ticks are less than a minute apart', () => {
    expect(timeTicks(NOW - 120, NOW, 1200)[0]!.label).toMatch(/\d\d.\d\d.\d\d/);
    expect(timeTicks(NOW - 86_400, NOW, 800)[0]!.label).not.toMatch(/\d\d.\d\d.\d\d/);
  });
});

test('value labels are at least a line of text apart, whatever the range', () => {
  for (const [min, max] of [
    [0, 1],
    [117.3, 121.9],
    [-5, 1500],
    [20.01, 20.02],
  ] as const) {
    for (const height of [120, 206, 400]) {
      const ticks = valueTicks(min, max, height, 'V');
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      for (let i = 1; i < ticks.length; i++)
        expect(Math.abs(ticks[i]!.at - ticks[i - 1]!.at)).toBeGreaterThanOrEqual(LABEL_PX + LABEL_GAP);
      // Distinct labels: the step never rounds two ticks to the same text.
      expect(new Set(ticks.map((t) => t.label)).size).toBe(ticks.length);
    }
  }
});

describe('charts in the window', () => {
  // jsdom lays nothing out: give every element a width, as a browser window 900 px wide would.
  const described = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
  beforeAll(() =>
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 900 }),
  );
  afterAll(() => described && Object.defineProperty(HTMLElement.prototype, 'clientWidth', described));

  test('a limit line is drawn at its value, dashed, and named in the legend', () => {
    const { container } = render(MeterChart, {
      unit: 'V',
      from: NOW - 600,
      to: NOW,
      series: [
        {
          key: 'v',
          name: 'AC voltage',
          colour: 0,
          t: [NOW - 600, NOW - 300, NOW],
          v: [118, 121, 119],
          min: 110,
          max: 125,
        },
      ],
    });
    const max = container.querySelector<SVGLineElement>('line[data-limit="max"]')!;
    const min = container.querySelector<SVGLineElement>('line[data-limit="min"]')!;
    expect(max).not.toBeNull();
    // SVG y grows downwards: the maximum's line is above the minimum's, and the readings lie between them.
    expect(Number(max.getAttribute('y1'))).toBeLessThan(Number(min.getAttribute('y1')));
    const ys = [
      ...container
        .querySelector('path.series')!
        .getAttribute('d')!
        .matchAll(/[ML][\d.]+ ([\d.]+)/g),
    ].map((m) => Number(m[1]));
    expect(ys).toHaveLength(3);
    for (const y of ys) {
      expect(y).toBeGreaterThan(Number(max.getAttribute('y1')));
      expect(y).toBeLessThan(Number(min.getAttribute('y1')));
    }
    const legend = screen.getByRole('list', { name: 'Series in this chart' });
    expect(legend).toHaveTextContent('AC voltage (limits dashed, min 110.00 V, max 125.00 V)');
    expect(screen.getByRole('figure')).toHaveTextContent('limits: minimum 110.00 V, maximum 125.00 V');
  });

  function history(key: string): MeterHistory {
    // Two hours: a low reading long ago, then steady.
    const unit = key.includes('temperature') ? '°C' : key.includes('current') ? 'A' : 'V';
    return { key, unit, t: [NOW - 7200, NOW - 1800, NOW], v: [100, 118, 119] };
  }

  function panel() {
    const asked: string[] = [];
    const settings: Settings = {
      ...DEFAULT_SETTINGS,
      meterThresholds: [{ controllerId: 'bench-a', key: 'buses.0.voltage', min: null, max: 125 }],
    };
    render(MetersPanel, {
      controllerName: 'Bench A',
      live: controllerState({ lastUpdate: NOW * 1000 }),
      settings,
      actions: {
        meterHistory: async (key: string): Promise<Result<MeterHistory>> => {
          asked.push(key);
          return { ok: true, value: history(key) };
        },
        exportCsv: async () => ({ ok: true as const, value: { filename: 'x.csv', csv: '' } }),
      },
      onthreshold: async () => ({ ok: true, value: settings }),
    });
    return asked;
  }

  test('several meters at once: one chart per unit, each series in its legend', async () => {
    const user = userEvent.setup();
    const asked = panel();
    const series = screen.getByRole('group', { name: 'Meters in the chart' });
    expect(within(series).getByRole('checkbox', { name: 'Voltage' })).toBeChecked();
    await user.click(within(series).getByRole('checkbox', { name: 'Internal temperature' }));
    await user.click(within(series).getByRole('checkbox', { name: 'Sensor temperature' }));
    const figures = await screen.findAllByRole('figure');
    expect(figures).toHaveLength(2);
    const legends = figures.map((f) =>
      within(f)
        .getAllByRole('listitem')
        .map((li) => li.textContent!.replace(/\s+/g, ' ').trim()),
    );
    expect(legends).toEqual([
      ['Voltage (limits dashed, max 125.00 V)'],
      ['Internal temperature', 'Sensor temperature'],
    ]);
    // Each temperature is its own line, in its own colour.
    const paths = figures[1]!.querySelectorAll('path.series');
    expect(paths).toHaveLength(2);
    expect(paths[0]!.getAttribute('class')).not.toBe(paths[1]!.getAttribute('class'));
    expect(asked).toEqual(['buses.0.voltage', 'internal_temperature', 'sensors.0.temperature']);
    await user.click(within(series).getByRole('checkbox', { name: 'Voltage' }));
    expect(screen.getAllByRole('figure')).toHaveLength(1);
  });

  test('the time range leaves out what is older', async () => {
    const user = userEvent.setup();
    panel();
    const figure = await screen.findByRole('figure');
    expect(figure).toHaveTextContent(/lowest 100\.00 V/);
    await user.click(screen.getByRole('radio', { name: '1 h' }));
    expect(screen.getByRole('figure')).toHaveTextContent(/lowest 118\.00 V, highest 119\.00 V/);
    await user.click(screen.getByRole('radio', { name: 'All kept' }));
    expect(screen.getByRole('figure')).toHaveTextContent(/lowest 100\.00 V/);
  });
});

test('a live point keeps the whole day the Core sent (more than a few thousand polls)', async () => {
  const count = 20_000;
  const t = Array.from({ length: count }, (_, i) => NOW - (count - i) * 3);
  const v = t.map((_, i) => (i === 0 ? 50 : 118));
  const settings: Settings = { ...DEFAULT_SETTINGS };
  const props = {
    controllerName: 'Bench A',
    live: controllerState({ lastUpdate: (NOW - 3) * 1000 }),
    settings,
    actions: {
      meterHistory: async (key: string): Promise<Result<MeterHistory>> => ({
        ok: true,
        value: { key, unit: 'V', t, v },
      }),
      exportCsv: async () => ({ ok: true as const, value: { filename: 'x.csv', csv: '' } }),
    },
    onthreshold: async () => ({ ok: true as const, value: settings }),
  };
  const { rerender } = render(MetersPanel, props);
  expect(await screen.findByText(/lowest 50\.00 V/)).toBeVisible();
  const next = controllerState({ lastUpdate: NOW * 1000 });
  next.meters![0]!.value = 119;
  await rerender({ live: next });
  expect(screen.getByRole('figure')).toHaveTextContent(/latest 119\.00 V, lowest 50\.00 V/);
});
