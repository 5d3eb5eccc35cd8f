/** The bench's results: one row per figure, printed as a table and written as JSON. */

export interface Baseline {
  /** What the baseline does, e.g. "naive client (one request per field)". */
  name: string;
  value: number;
}

export interface Row {
  /** Measurement number (1–9: issue 7, and 9 from issue 11; 10 from issue 14). */
  measurement: number;
  /** What the figure is, e.g. "requests per full refresh". */
  figure: string;
  value: number;
  unit: string;
  /** The target in words, e.g. "≤ 2"; '' when the row is informative only. */
  target: string;
  /** null when the row has no target of its own. */
  met: boolean | null;
  /** Baselines measured in the same run; ratio = baseline ÷ Plugboard. */
  baselines: Baseline[];
  /** How it was measured or what to keep in mind, one short sentence. */
  note?: string;
}

export interface Machine {
  cores: number;
  cpu: string;
  memoryGiB: number;
  node: string;
  platform: string;
  date: string;
  quick: boolean;
}

export interface BenchReport {
  machine: Machine;
  rows: Row[];
  /** Measurements that could not run, with the reason. */
  skipped: { measurement: number; reason: string }[];
  durationSeconds: number;
}

export function row(fields: Omit<Row, 'baselines'> & { baselines?: Baseline[] }): Row {
  return { baselines: [], ...fields };
}

/** Round for display: 3 significant digits, no exponent for everyday sizes. */
export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (value === 0) return '0';
  if (Number.isInteger(value)) return String(value);
  const abs = Math.abs(value);
  if (abs >= 1000) return Math.round(value).toString();
  if (abs >= 100) return value.toFixed(0);
  if (abs >= 10) return value.toFixed(1);
  if (abs >= 1) return value.toFixed(2);
  return value.toPrecision(2);
}

function ratio(baseline: number, value: number): string {
  if (value === 0) return baseline === 0 ? '=' : '∞';
  return `${formatNumber(baseline / value)}×`;
}

const MET = { true: 'yes', false: 'NO', null: '—' } as const;

/** The table, as plain text with aligned columns (Markdown-compatible pipes). */
export function formatTable(report: BenchReport): string {
  const header = ['#', 'figure', 'Plugboard', 'target', 'met?', 'baseline', 'baseline figure', 'ratio'];
  const lines: string[][] = [header];
  for (const r of report.rows) {
    const value = `${formatNumber(r.value)} ${r.unit}`.trim();
    const first = r.baselines[0];
    lines.push([
      String(r.measurement),
      r.figure,
      value,
      r.target || '—',
      MET[String(r.met) as 'true' | 'false' | 'null'],
      first?.name ?? '—',
      first ? `${formatNumber(first.value)} ${r.unit}`.trim() : '—',
      first ? ratio(first.value, r.value) : '—',
    ]);
    for (const extra of r.baselines.slice(1)) {
      lines.push([
        '',
        '',
        '',
        '',
        '',
        extra.name,
        `${formatNumber(extra.value)} ${r.unit}`.trim(),
        ratio(extra.value, r.value),
      ]);
    }
  }
  const widths = header.map((_, c) => Math.max(...lines.map((l) => [...(l[c] ?? '')].length)));
  const pad = (text: string, width: number): string => text + ' '.repeat(width - [...text].length);
  const render = (cells: string[]): string =>
    `| ${cells.map((cell, c) => pad(cell, widths[c]!)).join(' | ')} |`;
  const rule = `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`;
  return [render(lines[0]!), rule, ...lines.slice(1).map(render)].join('\n');
}

export function formatMachine(machine: Machine): string {
  return [
    `Machine: ${machine.cores} cores (${machine.cpu}), ${machine.memoryGiB} GiB RAM, Node ${machine.node}, ${machine.platform}`,
    `Date: ${machine.date}${machine.quick ? '  (--quick: the memory run is shortened; its figure is indicative only)' : ''}`,
  ].join('\n');
}

export function formatNotes(report: BenchReport): string {
  const notes = report.rows.filter((r) => r.note).map((r) => `- [${r.measurement}] ${r.figure}: ${r.note}`);
  const skipped = report.skipped.map((s) => `- [${s.measurement}] NOT RUN: ${s.reason}`);
  return [...notes, ...skipped].join('\n');
}
