/**
 * The meter charts, drawn by uPlot (MeterChart.svelte loads it when a chart is first shown): the data
 * each chart gets (one shared time column, a column per meter, a constant column per limit line, the
 * chosen time range as the first and last time) and the options it is drawn with (a colour per meter,
 * dashed limit lines in the colours of a limit — not their meter's —, axes spaced so their labels never
 * collide, a cursor that reads the values under the pointer and drags to zoom). Pure, so tested
 * without a browser.
 */
import type uPlot from 'uplot';

export type ChartRange = '1h' | '24h' | 'all';
export const RANGES: { value: ChartRange; label: string; seconds: number }[] = [
  { value: '1h', label: '1 h', seconds: 3600 },
  { value: '24h', label: '24 h', seconds: 86_400 },
  { value: 'all', label: 'All kept', seconds: Number.POSITIVE_INFINITY },
];

/** One line of a chart, in the unit shown (already converted). */
export interface ChartSeries {
  key: string;
  name: string;
  /** Colour slot 0–5 (the same meter keeps its colour across charts). */
  colour: number;
  /** Epoch seconds, ascending. */
  t: number[];
  v: (number | null)[];
  /** Its saved limits in the unit shown; null = none. */
  min: number | null;
  max: number | null;
}

/** Axis label font size, px (the chart's CSS and uPlot's axis font use the same). */
export const LABEL_PX = 12;
/** Room kept between two labels, px. */
export const LABEL_GAP = 10;
/** The chart's height, px. */
const CHART_HEIGHT = 240;

/**
 * A label's width at LABEL_PX, over-estimated on purpose (wide glyphs count as wide; "AM"/"PM" and
 * letters are wider than digits), so labels that fit by this measure fit on screen.
 */
export function labelWidth(label: string): number {
  let em = 0;
  for (const ch of label)
    em += /[0-9]/.test(ch) ? 0.6 : /[ .:,]/.test(ch) ? 0.35 : /[A-ZMW]/.test(ch) ? 0.85 : 0.65;
  return Math.ceil(em * LABEL_PX) + 2;
}

/** Tick steps of the time axis, seconds: whole seconds at the finest (polls are never closer). */
export const TIME_STEPS = [
  1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 10_800, 21_600, 43_200, 86_400, 172_800,
  604_800,
];

/** A time label for ticks `step` seconds apart: seconds only when the step needs them; the day past a day. */
export function timeLabel(seconds: number, step: number): string {
  const date = new Date(seconds * 1000);
  if (step >= 86_400) return date.toLocaleDateString(undefined, { day: 'numeric', month: 'short' });
  return date.toLocaleTimeString(undefined, {
    hour: '2-digit',
    minute: '2-digit',
    ...(step < 60 ? { second: '2-digit' } : {}),
  });
}

/**
 * The least room between two time ticks, px: the widest label any step can have (late in the day,
 * with seconds; a long month name) and a gap. uPlot takes the finest step whose ticks are at least
 * this far apart, so labels centred on them never touch, at any width.
 */
export function timeSpace(): number {
  const day = new Date(2026, 11, 28, 22, 58, 58).getTime() / 1000;
  const widest = Math.max(
    ...[1, 60, 86_400].map((step) => labelWidth(timeLabel(day, step))),
    ...[0, 8, 9, 10, 11].map((month) =>
      labelWidth(timeLabel(new Date(2026, month, 28).getTime() / 1000, 86_400)),
    ),
  );
  return widest + LABEL_GAP;
}

/** Decimals a step needs: 0.25 → 2, 5 → 0. */
function decimals(step: number): number {
  let digits = 0;
  while (digits < 10 && Math.abs(Math.round(step * 10 ** digits) - step * 10 ** digits) > 1e-6) digits++;
  return digits;
}

/** A value-axis label: as many decimals as the step between ticks needs, and the unit. */
export function valueLabel(value: number, step: number, unit: string): string {
  return `${value.toFixed(decimals(step))}${unit ? ` ${unit}` : ''}`;
}

/** One dashed limit line: the series it belongs to, which bound, and its value in the unit shown. */
export interface LimitLine {
  key: string;
  side: 'min' | 'max';
  value: number;
  colour: number;
  label: string;
}

/** The limit lines of a chart, each series' minimum then maximum. */
export function limitLines(series: readonly ChartSeries[]): LimitLine[] {
  return series.flatMap((s) =>
    (['min', 'max'] as const).flatMap((side) => {
      const value = s[side];
      if (value === null || !Number.isFinite(value)) return [];
      const label = `${s.name} ${side === 'min' ? 'minimum' : 'maximum'}`;
      return [{ key: s.key, side, value, colour: s.colour, label }];
    }),
  );
}

/**
 * The columns uPlot draws: every time any series has a reading in [from, to], plus `from` and `to`
 * themselves (so the time axis spans the chosen range and the limit lines cross it whole); then one
 * column per series (null where it has no reading: a gap) and one constant column per limit line.
 */
export function chartData(series: readonly ChartSeries[], from: number, to: number): uPlot.AlignedData {
  const times = new Set<number>([from, to]);
  for (const s of series) for (const t of s.t) if (t >= from && t <= to) times.add(t);
  const xs = [...times].sort((a, b) => a - b);
  const index = new Map(xs.map((t, i) => [t, i]));
  const columns: (number | null)[][] = series.map((s) => {
    const column = new Array<number | null>(xs.length).fill(null);
    s.t.forEach((t, i) => {
      const at = index.get(t);
      const value = s.v[i];
      if (at !== undefined && value !== null && value !== undefined && Number.isFinite(value))
        column[at] = value;
    });
    return column;
  });
  for (const limit of limitLines(series)) columns.push(new Array<number>(xs.length).fill(limit.value));
  return [xs, ...columns];
}

/** Colours read from the page's CSS (so both themes): series colours by slot, text, grid, limits. */
export interface ChartColours {
  series: string[];
  text: string;
  grid: string;
  /** A maximum's line and a minimum's (the colours of a breach, whatever the meter's colour). */
  limits?: { min: string; max: string };
}

/** How a limit line is dashed, px: dash, gap. */
export const LIMIT_DASH = [6, 4];

/**
 * uPlot's options for one chart: a line per series, a dashed line per limit, the axes, no legend of its
 * own (the chart's markup has one, which shows the values under the cursor), and a cursor that drags
 * across time to zoom in.
 */
export function chartOptions(
  unit: string,
  series: readonly ChartSeries[],
  colours: ChartColours,
  width: number,
): uPlot.Options {
  const colour = (slot: number) => colours.series[slot % colours.series.length] ?? colours.text;
  const axis = {
    stroke: colours.text,
    font: `${LABEL_PX}px system-ui, sans-serif`,
    grid: { stroke: colours.grid, width: 1 },
    ticks: { stroke: colours.grid, width: 1 },
  };
  const space = timeSpace();
  return {
    width,
    height: CHART_HEIGHT,
    // The legend is the chart's own markup (a list screen readers and a window without canvas get too).
    legend: { show: false },
    cursor: {
      show: true,
      x: true,
      y: false,
      points: { show: true, size: 7 },
      drag: { x: true, y: false, setScale: true },
    },
    // Room on the right for half of the last time label, centred on its tick.
    padding: [LABEL_PX, Math.ceil(space / 2), 0, 0],
    scales: { x: { time: true } },
    series: [
      {},
      ...series.map((s) => ({
        label: s.name,
        stroke: colour(s.colour),
        width: 2,
        spanGaps: false,
        points: { show: false },
      })),
      ...limitLines(series).map((limit) => ({
        label: limit.label,
        stroke: colours.limits?.[limit.side] ?? colour(limit.colour),
        width: 1.5,
        dash: LIMIT_DASH,
        points: { show: false },
      })),
    ],
    axes: [
      {
        ...axis,
        space,
        incrs: TIME_STEPS,
        values: (_u: uPlot, splits: number[], _axis: number, _space: number, step: number) =>
          splits.map((t) => timeLabel(t, step)),
      },
      {
        ...axis,
        // A line of text and a gap between value labels; the axis as wide as its widest label.
        space: LABEL_PX + LABEL_GAP + 6,
        size: (_u: uPlot, values: string[] | null) =>
          Math.max(40, ...(values ?? []).map(labelWidth)) + LABEL_GAP,
        values: (_u: uPlot, splits: number[], _axis: number, _space: number, step: number) =>
          splits.map((n) => valueLabel(n, step, unit)),
      },
    ],
  };
}
