/** The Inventory view at 200 controllers (issue 16 item 9): a small DOM, sortable, drift counted. */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { InventoryRow } from '../../src-preload/model';
import App from '../../src-renderer/App.svelte';
import { snapshot } from './fixtures';
import { TestBackend } from './test-backend';

let backend: TestBackend;

/** 200 controllers; every tenth runs an older firmware than the rest of its model. */
function fleet(): InventoryRow[] {
  return Array.from({ length: 200 }, (_, i) => ({
    controllerId: `c${i}`,
    name: `Unit ${String(i + 1).padStart(3, '0')}`,
    status: 'online',
    stale: false,
    model: 'LPC9',
    serial: `LPC9${String(i).padStart(6, '0')}`,
    firmware: i % 10 === 0 ? '1.9.8.0' : '1.10.2.0',
    relayFirmware: '1.3.1',
    sshEnabled: i % 2 === 0,
    userCount: 1 + (i % 3),
    outletsOn: i % 9,
    outletCount: 8,
    lastSeen: 1_700_000_000_000 + i,
    firmwareBehind: i % 10 === 0 ? '1.10.2.0' : null,
    relayFirmwareBehind: null,
  }));
}

beforeEach(() => {
  backend = new TestBackend();
  backend.answer('app/snapshot', () => ({ ok: true, value: snapshot({ controllers: [], states: [] }) }));
  backend.answer('fleet/inventory', () => ({ ok: true, value: fleet() }));
  (window as { plugboard?: unknown }).plugboard = backend.api;
});
afterEach(() => delete (window as { plugboard?: unknown }).plugboard);

test('200 controllers put only the rows in view in the page, and sort by firmware', async () => {
  const user = userEvent.setup();
  render(App);
  await user.click(await screen.findByRole('button', { name: 'Inventory' }));
  const table = await screen.findByRole('table', { name: 'Inventory' });
  expect(
    await screen.findByText('200 controllers, 20 behind the newest firmware of their model'),
  ).toBeDefined();
  expect(table).toHaveAttribute('aria-rowcount', '201');
  const bodyRows = () =>
    within(table)
      .getAllByRole('row')
      .filter((r) => r.getAttribute('aria-rowindex') !== '1');
  // 560 px at 36 px a row, and a few around: far fewer than 200.
  expect(bodyRows().length).toBeLessThanOrEqual(30);
  expect(bodyRows()[0]).toHaveAttribute('aria-rowindex', '2');
  await user.click(within(table).getByRole('button', { name: 'Firmware' }));
  expect(within(table).getByRole('columnheader', { name: 'Firmware' })).toHaveAttribute(
    'aria-sort',
    'ascending',
  );
  // The older firmware first, and it is the highlighted one.
  const first = bodyRows()[0]!;
  expect(first).toHaveTextContent('Unit 001');
  expect(first.querySelector('td.drift')).toHaveTextContent('1.9.8.0');
});
