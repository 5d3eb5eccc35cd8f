/**
 * The fleet inventory table's columns, sorting and words, pure. Rows come from the
 * Core (`fleet/inventory`), drift already marked there; versions sort numerically (1.10.2 after 1.9.8),
 * unknown values always last.
 */
import type { InventoryRow } from '../../src-preload/model';
import { formatDateTime } from './format';

export type InventoryColumn =
  'name' | 'model' | 'serial' | 'firmware' | 'relayFirmware' | 'ssh' | 'users' | 'outlets' | 'lastSeen';

export interface InventorySort {
  column: InventoryColumn;
  direction: 'ascending' | 'descending';
}

export const INVENTORY_COLUMNS: readonly { id: InventoryColumn; title: string }[] = [
  { id: 'name', title: 'Controller' },
  { id: 'model', title: 'Model' },
  { id: 'serial', title: 'Serial' },
  { id: 'firmware', title: 'Firmware' },
  { id: 'relayFirmware', title: 'Relay firmware' },
  { id: 'ssh', title: 'SSH' },
  { id: 'users', title: 'Users' },
  { id: 'outlets', title: 'Outlets on' },
  { id: 'lastSeen', title: 'Last seen' },
];

type Key = string | number | null;

function keyOf(row: InventoryRow, column: InventoryColumn): Key {
  switch (column) {
    case 'name':
      return row.name;
    case 'model':
      return row.model;
    case 'serial':
      return row.serial;
    case 'firmware':
      return row.firmware;
    case 'relayFirmware':
      return row.relayFirmware;
    case 'ssh':
      return row.sshEnabled === null ? null : row.sshEnabled ? 1 : 0;
    case 'users':
      return row.userCount;
    case 'outlets':
      return row.outletsOn;
    case 'lastSeen':
      return row.lastSeen;
  }
}

const collator = new Intl.Collator('en', { numeric: true, sensitivity: 'base' });

/** Sorted by one column; ties by name; unknown values last in either direction. */
export function sortInventory(rows: readonly InventoryRow[], sort: InventorySort): InventoryRow[] {
  const sign = sort.direction === 'ascending' ? 1 : -1;
  return [...rows].sort((a, b) => {
    const x = keyOf(a, sort.column);
    const y = keyOf(b, sort.column);
    if (x === null || y === null) {
      if (x !== y) return x === null ? 1 : -1;
    } else {
      const order =
        typeof x === 'number' && typeof y === 'number' ? x - y : collator.compare(String(x), String(y));
      if (order !== 0) return sign * order;
    }
    return collator.compare(a.name, b.name);
  });
}

/** The next sort when a column's header is pressed: that column ascending, or the other way round. */
export function nextSort(current: InventorySort, column: InventoryColumn): InventorySort {
  if (current.column !== column) return { column, direction: 'ascending' };
  return { column, direction: current.direction === 'ascending' ? 'descending' : 'ascending' };
}

/** A cell's words ("unknown" for what is not known). */
export function cellText(row: InventoryRow, column: InventoryColumn): string {
  const unknown = '—';
  switch (column) {
    case 'ssh':
      return row.sshEnabled === null ? unknown : row.sshEnabled ? 'on' : 'off';
    case 'users':
      return row.userCount === null ? unknown : String(row.userCount);
    case 'outlets':
      return row.outletCount === null ? unknown : `${row.outletsOn ?? '?'} of ${row.outletCount}`;
    case 'lastSeen':
      return row.lastSeen === null ? 'never' : formatDateTime(row.lastSeen);
    default: {
      const value = keyOf(row, column);
      return value === null ? unknown : String(value);
    }
  }
}

/** Why a cell is highlighted as drift, in words; null when it is not. */
export function driftText(row: InventoryRow, column: InventoryColumn): string | null {
  if (column === 'firmware' && row.firmwareBehind)
    return `Older than ${row.firmwareBehind}, the newest firmware on another ${row.model ?? ''} here`;
  if (column === 'relayFirmware' && row.relayFirmwareBehind)
    return `Older than ${row.relayFirmwareBehind}, the newest relay firmware on another ${row.model ?? ''} here`;
  return null;
}
