/** The inventory table's sorting and words (issue 16 item 9). */
import { expect, test } from 'vitest';
import type { InventoryRow } from '../../src-preload/model';
import { cellText, driftText, nextSort, sortInventory } from '../../src-renderer/lib/inventory-table';

function row(name: string, patch: Partial<InventoryRow> = {}): InventoryRow {
  return {
    controllerId: name.toLowerCase(),
    name,
    status: 'online',
    stale: false,
    model: 'LPC9',
    serial: `S-${name}`,
    firmware: '1.12.14.0',
    relayFirmware: '1.3.1',
    sshEnabled: false,
    userCount: 1,
    outletsOn: 0,
    outletCount: 8,
    lastSeen: 1000,
    firmwareBehind: null,
    relayFirmwareBehind: null,
    ...patch,
  };
}

const rows = [
  row('Bench 10', { firmware: '1.9.8.0', userCount: 3 }),
  row('Bench 2', { firmware: '1.10.2.0', userCount: null }),
  row('Bench 1', { firmware: null, userCount: 2 }),
];

test('sorts versions and names numerically, unknown values last both ways', () => {
  const names = (sorted: InventoryRow[]) => sorted.map((r) => r.name);
  expect(names(sortInventory(rows, { column: 'name', direction: 'ascending' }))).toEqual([
    'Bench 1',
    'Bench 2',
    'Bench 10',
  ]);
  expect(names(sortInventory(rows, { column: 'firmware', direction: 'ascending' }))).toEqual([
    'Bench 10',
    'Bench 2',
    'Bench 1',
  ]);
  expect(names(sortInventory(rows, { column: 'firmware', direction: 'descending' }))).toEqual([
    'Bench 2',
    'Bench 10',
    'Bench 1',
  ]);
  expect(names(sortInventory(rows, { column: 'users', direction: 'descending' }))).toEqual([
    'Bench 10',
    'Bench 1',
    'Bench 2',
  ]);
});

test('a header pressed twice turns the order round; another column starts ascending', () => {
  const first = nextSort({ column: 'name', direction: 'ascending' }, 'firmware');
  expect(first).toEqual({ column: 'firmware', direction: 'ascending' });
  expect(nextSort(first, 'firmware')).toEqual({ column: 'firmware', direction: 'descending' });
});

test('says what is unknown, outlets on of all, and why a firmware is drift', () => {
  const behind = row('Old', { firmwareBehind: '1.10.2.0', outletsOn: 3, sshEnabled: null });
  expect(cellText(behind, 'outlets')).toBe('3 of 8');
  expect(cellText(behind, 'ssh')).toBe('—');
  expect(driftText(behind, 'firmware')).toBe('Older than 1.10.2.0, the newest firmware on another LPC9 here');
  expect(driftText(behind, 'relayFirmware')).toBeNull();
});
