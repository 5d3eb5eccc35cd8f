/**
 * The one place where outlet numbers change base. People and the hardware label count outlets 1, 2, …;
 * the REST-style API counts from 0. Everything outside this file speaks 1-based numbers.
 */
import { PlugboardError } from '../shared/errors';
import type { OutletSelection } from './types';

/** API index (0-based) → outlet number (1-based). */
export function outletNumberOf(apiIndex: number): number {
  return apiIndex + 1;
}

/** Outlet number (1-based) → API index (0-based), refusing numbers the controller does not have. */
export function apiIndexOf(outlet: number, outletCount: number | null, controller: string): number {
  if (!Number.isInteger(outlet) || outlet < 1) {
    throw new PlugboardError(
      'BAD_INPUT',
      `Outlet ${String(outlet)} does not exist: outlets are numbered from 1.`,
      {
        outlet: String(outlet),
      },
    );
  }
  // A unit that answered with no outlets (a cut-short or hostile answer) has no range to name.
  if (outletCount === 0) {
    throw new PlugboardError(
      'DEVICE_ERROR',
      `${controller} reported no outlets, so there is no outlet ${outlet} to switch.`,
      { outlet, outletCount },
      { action: 'Check the controller: its own web page lists its outlets.' },
    );
  }
  if (outletCount !== null && outlet > outletCount) {
    throw new PlugboardError(
      'BAD_INPUT',
      `Outlet ${outlet} does not exist on ${controller}: it has outlets 1 to ${outletCount}.`,
      { outlet, outletCount },
    );
  }
  return outlet - 1;
}

/** A selection as a URI segment: `3` (one outlet), `=0,4` (a list) or `all;`. */
export interface OutletSegment {
  segment: string;
  /** The outlets selected, 1-based and in the order the controller answers for them; null for `all;`. */
  numbers: number[] | null;
  /** Whether the segment is a matrix selection (answered with 207, one entry per element). */
  matrix: boolean;
}

export function outletSegment(
  selection: OutletSelection,
  outletCount: number | null,
  controller: string,
): OutletSegment {
  if (selection === 'all') return { segment: 'all;', numbers: null, matrix: true };
  if (selection.length === 0) throw new PlugboardError('BAD_INPUT', 'Select at least one outlet.');
  const indices = [...new Set(selection.map((n) => apiIndexOf(n, outletCount, controller)))].sort(
    (a, b) => a - b,
  );
  const numbers = indices.map(outletNumberOf);
  if (indices.length === 1) return { segment: String(indices[0]), numbers, matrix: false };
  return { segment: `=${indices.join(',')}`, numbers, matrix: true };
}

/** The body of `set_outlet_transient_states`: `[[[index, on], …]]`. */
export function transientStatePairs(
  changes: readonly { outlet: number; on: boolean }[],
  outletCount: number | null,
  controller: string,
): [[number, boolean][]] {
  return [
    changes.map(({ outlet, on }) => [apiIndexOf(outlet, outletCount, controller), on] as [number, boolean]),
  ];
}

/** Outlet numbers named by the controller as API indices (e.g. a 409 body's `outlets`). */
export function outletNumbersOf(apiIndices: readonly number[]): number[] {
  return apiIndices.map(outletNumberOf);
}

/** `[1, 3]` with 4 outlets → `[true, false, true, false]` (index 0 = outlet 1). */
export function accessFromNumbers(
  outlets: readonly number[],
  outletCount: number,
  controller: string,
): boolean[] {
  const access = new Array<boolean>(outletCount).fill(false);
  for (const outlet of outlets) access[apiIndexOf(outlet, outletCount, controller)] = true;
  return access;
}

/** `[true, false, true]` → `[1, 3]`. */
export function numbersFromAccess(access: readonly boolean[]): number[] {
  return access.flatMap((allowed, index) => (allowed ? [outletNumberOf(index)] : []));
}
