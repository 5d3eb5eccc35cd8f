/**
 * What people type for outlets: `3`, `1,4,7`, `1-4`, `all`, or an outlet name (names need the
 * controller's list, so they are resolved once it is read). One parser for targets ("Bench A:1-4"), the
 * outlets of --controller or --url, `switch` pairs (`1=on`) and the `--outlets` of users and AutoPing.
 */
import { PlugboardError } from '../shared/errors';
import type { Outlet } from '../dli/types';
import { UsageError, excerpt } from './io';

export type OutletSpec =
  { kind: 'all' } | { kind: 'numbers'; numbers: number[] } | { kind: 'names'; text: string };

/** `1,4,7`, `1 4 7` (words joined by the shell's split) or ranges among them: `1-4,7`. */
const NUMBERS = /^\s*\d+(\s*-\s*\d+)?([\s,]+\d+(\s*-\s*\d+)?)*\s*$/;

/** Looks like a number (-1, +2, 1.5, 1e3, 0x2) without being a whole outlet number. */
const NUMBER_LIKE = /^([-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|0[xX][0-9a-fA-F]+)$/;

/** Mistakes found before anything is sent: an empty item in a list, or a number that is no outlet number. */
function checkListItems(text: string): void {
  const items = text.split(',').map((item) => item.trim());
  if (items.length > 1 && items.some((item) => item === '')) {
    throw new UsageError(`"${excerpt(text)}" has an empty item between commas: list outlets like 1,4,7.`);
  }
  for (const item of items) {
    if (/^\d+$/.test(item) && Number(item) === 0) throw new UsageError('Outlets are numbered from 1.');
    if (!/^\d+$/.test(item) && NUMBER_LIKE.test(item)) {
      throw new UsageError(
        `"${excerpt(item)}" is not an outlet number: outlets are numbered 1, 2, 3… as on the hardware.`,
      );
    }
  }
}

export function parseOutletSpec(text: string): OutletSpec {
  const trimmed = text.trim();
  if (!trimmed)
    throw new UsageError('Name the outlets: a number (3), a list (1,4,7), all, or an outlet name.');
  if (trimmed.toLowerCase() === 'all') return { kind: 'all' };
  checkListItems(trimmed);
  if (!NUMBERS.test(trimmed)) return { kind: 'names', text: trimmed };
  const numbers: number[] = [];
  for (const item of trimmed
    .replace(/\s*-\s*/g, '-')
    .split(/[\s,]+/)
    .filter(Boolean)) {
    const [from, to = from] = item.split('-').map(Number);
    if (!from || !to) throw new UsageError('Outlets are numbered from 1.');
    if (to < from)
      throw new UsageError(`"${excerpt(item)}" is a range backwards: write it low-high, e.g. 1-4.`);
    if (to - from > 63) throw new UsageError(`"${excerpt(item)}" is more outlets than a controller has.`);
    for (let n = from; n <= to; n++) numbers.push(n);
  }
  return { kind: 'numbers', numbers: [...new Set(numbers)] };
}

/**
 * Names (case-insensitive) to 1-based numbers: first the whole text as one name (names may contain
 * commas), else each comma-separated item as a number or a name.
 */
export function resolveOutletSpec(
  spec: OutletSpec,
  outlets: readonly Outlet[],
  controller: string,
): number[] | 'all' {
  if (spec.kind === 'all') return 'all';
  if (spec.kind === 'numbers') return spec.numbers;
  const whole = byName(spec.text, outlets);
  if (whole.length) return whole;
  const numbers = spec.text.split(',').flatMap((item) => {
    const part = item.trim();
    if (/^\d+$/.test(part)) return [Number(part)];
    const found = byName(part, outlets);
    if (!found.length) {
      const known = outlets.map((o) => `${o.number} "${o.name}"`).join(', ');
      throw new PlugboardError(
        'BAD_INPUT',
        `${controller} has no outlet named "${excerpt(part)}". Its outlets: ${known}.`,
      );
    }
    return found;
  });
  return [...new Set(numbers)];
}

function byName(name: string, outlets: readonly Outlet[]): number[] {
  const needle = name.toLowerCase();
  return outlets.filter((o) => o.name.trim().toLowerCase() === needle).map((o) => o.number);
}

/** `switch 1=on 2=off Lamp=on` → targets and states. */
export function parseSwitchPairs(pairs: readonly string[]): { target: string; on: boolean }[] {
  if (pairs.length === 0) throw new UsageError('Name what to switch, e.g. switch 1=on 2=off.');
  return pairs.map((pair) => {
    const at = pair.lastIndexOf('=');
    const target = at > 0 ? pair.slice(0, at).trim() : '';
    const state =
      at > 0
        ? pair
            .slice(at + 1)
            .trim()
            .toLowerCase()
        : '';
    if (!target || (state !== 'on' && state !== 'off')) {
      throw new UsageError(`"${excerpt(pair)}" is not OUTLET=on or OUTLET=off (e.g. 3=on).`);
    }
    return { target, on: state === 'on' };
  });
}

/** `--outlets 1,2` or `--outlets 1-3,7` (users, AutoPing items): numbers only, as targets write them. */
export function parseNumberList(text: string, what: string): number[] {
  const spec = text.trim() ? parseOutletSpec(text) : null;
  if (spec?.kind !== 'numbers')
    throw new UsageError(`${what} must be outlet numbers like 1,2 or a range like 1-3.`);
  return spec.numbers;
}
