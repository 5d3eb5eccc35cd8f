/**
 * Two Cores of one process writing the same file (the command line run in process beside a window's
 * Core, in tests) take turns: no write loses its temporary file to the other.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { rewriteWhole } from '../../../src-main/core/activity/activity-file';
import { loadInventoryCache, saveInventoryCache } from '../../../src-main/core/fleet/inventory-cache';
import type { KnownFacts } from '../../../src-main/core/fleet/inventory-rows';

const scratch = mkdtempSync(path.join(tmpdir(), 'plugboard-file-turns-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const facts = (serial: string): KnownFacts => ({
  model: 'LPC9',
  serial,
  firmware: '1.12.14.0',
  relayFirmware: null,
  sshEnabled: null,
  userCount: null,
  outletsOn: null,
  outletCount: 8,
  lastSeen: null,
});

it('saves the inventory cache from several writers at once, the last one kept', async () => {
  const file = path.join(scratch, 'inventory.json');
  const serials = Array.from({ length: 8 }, (_, i) => `LPC900000000${i}`);
  await Promise.all(serials.map((serial) => saveInventoryCache(file, new Map([['c1', facts(serial)]]))));
  expect(loadInventoryCache(file).get('c1')?.serial).toBe(serials.at(-1));
});

it('rewrites the activity log from several writers at once, the last one kept', async () => {
  const file = path.join(scratch, 'activity.jsonl');
  const texts = Array.from({ length: 8 }, (_, i) => `{"line":${i}}\n`);
  await Promise.all(texts.map((text) => rewriteWhole(file, text)));
  expect(readFileSync(file, 'utf8')).toBe(texts.at(-1));
});
