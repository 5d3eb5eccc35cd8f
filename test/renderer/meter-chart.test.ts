/**
 * The meter charts (issue 16 item 11), drawn by uPlot: the data each chart gets (the chosen time range,
 * a column per meter, a constant column per limit), the options (colours, dashed limit lines, axes
 * spaced so labels never collide), and the legend and caption a window without canvas shows too.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import type uPlot from 'uplot';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { MeterHistory, Result, Settings } from '../../src-preload/model';
import MeterChart from '../../src-renderer/lib/components/MeterChart.svelte';
import MetersPanel from '../../src-renderer/lib/panels/MetersPanel.svelte';
import { formatTime } from '../../src-renderer/lib/format';
import {
  chartData,
  chartOptions,
  labelWidth,
  LABEL_GAP,
  LABEL_PX,
  LIMIT_DASH,
  TIME_STEPS,
  timeLabel,
  timeSpace,
  type ChartSeries,
} from '../../src-renderer/lib/meter-chart';
import { DEFAULT_SETTINGS } from '../../src-renderer/lib/state/app-state.svelte';
import { controllerState } from './fixtures';

const NOW = 1_700_000_000;

const voltage: ChartSeries = {
  key: 'v',
  name: 'AC voltage',
  colour: 0,
  t: [NOW - 600, NOW - 300, NOW],
  v: [118, 121, 119],
  min: 110,
  max: 125,
};
const current: ChartSeries = {
  key: 'a',
  name: 'AC current',
  colour: 1,
  t: [NOW - 7200, NOW - 450, NOW - 300],
  v: [9, 2, null],
  min: null,
  max: null,
};
const colours = { series: ['red', 'green', 'blue'], text: 'black', grid: 'grey' };

describe('chart data', () => {
  test('the time column spans the chosen range, whatever the readings cover', () => {
    const [xs] = chartData([voltage], NOW - 3600, NOW + 60);
    expect(xs[0]).toBe(NOW - 3600);
    expect(xs.at(-1)).toBe(NOW + 60);
    expect([...xs]).toEqual([NOW - 3600, NOW - 600, NOW - 300, NOW, NOW + 60]);
  });

  test('several series share one time column, with gaps where one has no reading', () => {
    const [xs, v, a] = chartData([voltage, current], NOW - 3600, NOW);
    // The current's reading two hours ago is outside the hour; its null at NOW - 300 stays a gap.
    expect([...xs]).toEqual([NOW - 3600, NOW - 600, NOW - 450, NOW - 300, NOW]);
    expect(v).toEqual([null, 118, null, 121, 119]);
    expect(a).toEqual([null, null, 2, null, null]);
  });

  test('each limit is a constant column across the whole range, after the series', () => {
    const data = chartData([current, voltage], NOW - 600, NOW);
    expect(data).toHaveLength(1 + 2 + 2);
    expect(data[3]).toEqual(data[0].map(() => 110));
    expect(data[4]).toEqual(data[0].map(() => 125));
  });
});

describe('chart options', () => {
  const options = chartOptions('V', [voltage, current], colours, 800);
  const series = options.series.slice(1);

  test('limit lines are drawn in the colours of a limit when the page gives them, not their meter’s', () => {
    const limited = chartOptions(
      'V',
      [voltage, current],
      { ...colours, limits: { min: 'amber', max: 'crimson' } },
      800,
    );
    expect(limited.series.slice(1).map((s) => [s.label, s.stroke])).toEqual([
      ['AC voltage', 'red'],
      ['AC current', 'green'],
      ['AC voltage minimum', 'amber'],
      ['AC voltage maximum', 'crimson'],
    ]);
  });

  test('the cursor reads the values under the pointer and drags across time to zoom', () => {
    expect(options.cursor).toMatchObject({ show: true, drag: { x: true, y: false, setScale: true } });
  });

  test('a line per meter in its colour, then a dashed line per limit (its meter colour without limit colours)', () => {
    expect(series.map((s) => [s.label, s.stroke, s.dash ?? null])).toEqual([
      ['AC voltage', 'red', null],
      ['AC current', 'green', null],
      ['AC voltage minimum', 'red', LIMIT_DASH],
      ['AC voltage maximum', 'red', LIMIT_DASH],
    ]);
    // The meters' lines break where a reading is missing; no dots on any line.
    expect(series.slice(0, 2).every((s) => s.spanGaps === false)).toBe(true);
    expect(series.every((s) => s.points?.show === false)).toBe(true);
    // The columns chartData makes line up with these series.
    expect(chartData([voltage, current], NOW - 600, NOW)).toHaveLength(options.series.length);
  });

  test('the time axis is a time scale and its labels need no more room than it keeps', () => {
    expect(options.scales?.x?.time).toBe(true);
    const axis = options.axes![0]!;
    expect(axis.space).toBe(timeSpace());
    expect(axis.incrs).toEqual(TIME_STEPS);
    const values = axis.values as (
      u: uPlot,
      splits: number[],
      i: number,
      space: number,
      step: number,
    ) => string[];
    const space = timeSpace();
    for (const step of TIME_STEPS) {
      // Ticks across a day (and a year of days), labelled as uPlot would at this step.
      const ticks = Array.from({ length: 48 }, (_, i) => NOW + i * Math.max(step, 1799) + (i % 2) * 59);
      const widest = Math.max(...values({} as uPlot, ticks, 0, 0, step).map(labelWidth));
      expect(widest + LABEL_GAP, `labels at ${step} s`).toBeLessThanOrEqual(space);
    }
    expect(values({} as uPlot, [NOW], 0, 0, 30)[0]).toMatch(/\d\d.\d\d.\d\d/);
    expect(values({} as uPlot, [NOW], 0, 0, 3600)[0]).not.toMatch(/\d\d.\d\d.\d\d/);
    // Room for half the last label past the plot's right edge.
    expect(options.padding![1]).toBeGreaterThanOrEqual(timeSpace() / 2);
  });

  test('uPlot places time ticks at least the widest label apart, so none overlap, 200 to 1200 px', () => {
    const space = timeSpace();
    for (const span of [120, 3600, 86_400, 3 * 86_400])
      for (let width = 200; width <= 1200; width += 50) {
        // uPlot takes the finest step whose ticks are at least `space` px apart.
        const step = TIME_STEPS.find((s) => (s / span) * width >= space) ?? TIME_STEPS.at(-1)!;
        const apart = (step / span) * width;
        const widest = Math.max(
          ...Array.from({ length: 24 }, (_, h) => labelWidth(timeLabel(NOW + h * 3600 + 3599, step))),
        );
        expect(apart - widest, `${span} s over ${width} px`).toBeGreaterThanOrEqual(LABEL_GAP);
      }
  });

  test('value labels carry the unit, the decimals the step needs, and size the axis', () => {
    const axis = options.axes![1]!;
    expect(axis.space).toBeGreaterThanOrEqual(LABEL_PX + LABEL_GAP);
    const values = axis.values as (
      u: uPlot,
      splits: number[],
      i: number,
      space: number,
      step: number,
    ) => string[];
    expect(values({} as uPlot, [117.5, 117.75, 118], 1, 0, 0.25)).toEqual([
      '117.50 V',
      '117.75 V',
      '118.00 V',
    ]);
    expect(values({} as uPlot, [0, 500, 1000], 1, 0, 500)).toEqual(['0 V', '500 V', '1000 V']);
    const size = axis.size as (u: uPlot, values: string[], i: number, cycle: number) => number;
    const wide = size({} as uPlot, ['-1000.25 V', '1500.50 V'], 1, 0);
    expect(wide).toBeGreaterThanOrEqual(labelWidth('-1000.25 V') + LABEL_GAP);
    expect(wide).toBeGreaterThan(size({} as uPlot, ['1 V'], 1, 0));
  });

  test('a chart without limits has no dashed line; its own legend is off (the page has one)', () => {
    const plain = chartOptions('A', [current], colours, 800);
    expect(plain.series.filter((s) => s.dash)).toEqual([]);
    expect(plain.series).toHaveLength(2);
    expect(plain.legend?.show).toBe(false);
  });
});

describe('charts in the window', () => {
  // jsdom lays nothing out: give every element a width, as a browser window 900 px wide would.
  const described = Object.getOwnPropertyDescriptor(HTMLElement.prototype, 'clientWidth');
  beforeAll(() =>
    Object.defineProperty(HTMLElement.prototype, 'clientWidth', { configurable: true, get: () => 900 }),
  );
  afterAll(() => described && Object.defineProperty(HTMLElement.prototype, 'clientWidth', described));

  test('a limit is named in the legend and the caption', () => {
    render(MeterChart, {
      unit: 'V',
      from: NOW - 600,
      to: NOW,
      theme: 'system',
      series: [voltage],
    });
    const legend = screen.getByRole('list', { name: 'Series in this chart' });
    expect(legend).toHaveTextContent('AC voltage (limits dashed, min 110.00 V, max 125.00 V)');
    expect(screen.getByRole('figure')).toHaveTextContent(
      `AC voltage since ${formatTime((NOW - 600) * 1000)}: latest 119.00 V, lowest 118.00 V, highest 121.00 V (limits: minimum 110.00 V, maximum 125.00 V).`,
    );
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
    const swatches = figures[1]!.querySelectorAll('.legend .swatch');
    expect(swatches).toHaveLength(2);
    expect(swatches[0]!.getAttribute('class')).not.toBe(swatches[1]!.getAttribute('class'));
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
