/**
 * The geometry of the meter charts (hand-drawn SVG, MeterChart.svelte): time and value ticks whose
 * labels never overlap at any width, the value domain (limit lines included), and line paths with gaps,
 * thinned to about two points per pixel column. Pure, so tested without a browser.
 */

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

/** Axis label font size, px (the chart's CSS uses the same). */
export const LABEL_PX = 12;
/** Room kept between two labels, px. */
export const LABEL_GAP = 10;

export interface Tick {
  value: number;
  /** Position along the axis, px. */
  at: number;
  label: string;
  /** Where the label's centre goes: at the tick, moved inwards just enough at the axis' ends. */
  labelAt: number;
}

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

/** Tick steps of the time axis, seconds. */
const TIME_STEPS = [
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

/** The label's centre for a tick at `at`: kept whole inside [0, width]. */
function place(at: number, label: string, width: number): number {
  const half = labelWidth(label) / 2;
  return Math.min(Math.max(at, half), width - half);
}

/** True when no two labels overlap and none sticks out of [0, width]. */
export function fits(ticks: readonly Tick[], width: number): boolean {
  for (let i = 0; i < ticks.length; i++) {
    const half = labelWidth(ticks[i]!.label) / 2;
    if (ticks[i]!.labelAt - half < -0.01 || ticks[i]!.labelAt + half > width + 0.01) return false;
    if (i > 0) {
      const before = ticks[i - 1]!;
      if (ticks[i]!.labelAt - before.labelAt < half + labelWidth(before.label) / 2 + LABEL_GAP) return false;
    }
  }
  return true;
}

/**
 * Ticks of the time axis from `from` to `to` (epoch seconds) over `width` px: the finest step whose
 * labels all fit side by side (labels at the ends are moved inwards rather than cut).
 */
export function timeTicks(from: number, to: number, width: number, format = timeLabel): Tick[] {
  if (!(to > from) || width <= 0) return [];
  const offset = new Date(from * 1000).getTimezoneOffset() * 60;
  const x = (t: number) => ((t - from) / (to - from)) * width;
  let fallback: Tick[] | null = null;
  for (const step of TIME_STEPS) {
    if ((to - from) / step > width / 20) continue;
    // Local midnight and whole hours: steps of an hour and more are aligned to the local clock.
    const first = Math.ceil((from - offset) / step) * step + offset;
    const ticks: Tick[] = [];
    for (let t = first; t <= to; t += step) {
      const label = format(t, step);
      ticks.push({ value: t, at: x(t), label, labelAt: place(x(t), label, width) });
    }
    // A tick at an end whose label, moved inwards, would touch its neighbour's is left out.
    if (ticks.length > 2 && !fits(ticks.slice(0, 2), width)) ticks.shift();
    if (ticks.length > 2 && !fits(ticks.slice(-2), width)) ticks.pop();
    // The finest step that fits with two labels at least; one label when nothing finer fits.
    if (fits(ticks, width)) {
      if (ticks.length >= 2) return ticks;
      if (ticks.length === 1) fallback ??= ticks;
    }
  }
  return fallback ?? [];
}

/** A "nice" step (1, 2 or 5 × 10ⁿ) of at least `rough`. */
function niceStep(rough: number): number {
  const power = 10 ** Math.floor(Math.log10(rough));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * power >= rough) return m * power;
  return 10 * power;
}

/** Decimals a step needs: 0.25 → 2, 5 → 0. */
function decimals(step: number): number {
  let digits = 0;
  while (digits < 10 && Math.abs(Math.round(step * 10 ** digits) - step * 10 ** digits) > 1e-6) digits++;
  return digits;
}

/**
 * Ticks of the value axis over `height` px (0 at the top): as many nice steps as fit with a line of
 * text and a gap between labels, labelled with the unit.
 */
export function valueTicks(min: number, max: number, height: number, unit: string): Tick[] {
  if (!(max > min) || height <= 0) return [];
  const most = Math.max(2, Math.floor(height / (LABEL_PX + LABEL_GAP + 6)));
  const step = niceStep((max - min) / most);
  const digits = decimals(step);
  const y = (v: number) => height - ((v - min) / (max - min)) * height;
  const ticks: Tick[] = [];
  for (let v = Math.ceil(min / step - 1e-9) * step; v <= max + step * 1e-9; v += step) {
    const rounded = Number(v.toFixed(digits));
    const label = `${rounded.toFixed(digits)}${unit ? ` ${unit}` : ''}`;
    ticks.push({ value: rounded, at: y(rounded), label, labelAt: y(rounded) });
  }
  return ticks;
}

/** The value range a chart shows: every value in view and every limit line, with a little room. */
export function valueDomain(values: readonly number[], limits: readonly number[]): [number, number] {
  const all = [...values, ...limits].filter(Number.isFinite);
  if (all.length === 0) return [0, 1];
  let low = Math.min(...all);
  let high = Math.max(...all);
  const pad = high > low ? (high - low) * 0.08 : Math.max(Math.abs(high) * 0.05, 1);
  low -= pad;
  high += pad;
  return [low, high];
}

/**
 * An SVG path of one series between `from` and `to`: a gap where there is no reading, and at most the
 * first, lowest, highest and last point per pixel column (a day of polls stays a few thousand points).
 */
export function linePath(
  t: readonly number[],
  v: readonly (number | null)[],
  x: (t: number) => number,
  y: (v: number) => number,
  from: number,
  to: number,
): string {
  let d = '';
  let pen = false;
  let column = Number.NaN;
  let bucket: { x: number; y: number }[] = [];
  const flush = () => {
    if (bucket.length === 0) return;
    const lowest = bucket.reduce((a, b) => (b.y > a.y ? b : a));
    const highest = bucket.reduce((a, b) => (b.y < a.y ? b : a));
    const keep = [...new Set([bucket[0]!, lowest, highest, bucket.at(-1)!])];
    for (const p of keep) {
      d += `${pen ? 'L' : 'M'}${p.x.toFixed(1)} ${p.y.toFixed(1)}`;
      pen = true;
    }
    bucket = [];
  };
  for (let i = 0; i < t.length; i++) {
    const time = t[i]!;
    if (time < from || time > to) continue;
    const value = v[i];
    if (value === null || value === undefined || !Number.isFinite(value)) {
      flush();
      pen = false;
      continue;
    }
    const px = x(time);
    if (Math.floor(px) !== column) {
      flush();
      column = Math.floor(px);
    }
    bucket.push({ x: px, y: y(value) });
  }
  flush();
  return d;
}
