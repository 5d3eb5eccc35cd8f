/**
 * What the inventory last knew of each controller, kept in `inventory.json` in the config folder so a
 * controller that does not answer after a restart still shows its last known values. A cache: a missing or
 * unreadable file is an empty one; writes are atomic (a temporary file renamed) and owner-only.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as v from 'valibot';
import { WRITE_NO_LINK } from '../../shared/config-folder';
import { inTurn } from '../kernel/file-turns';
import type { KnownFacts } from './inventory-rows';

const text = v.nullable(v.string());
const count = v.nullable(v.pipe(v.number(), v.integer(), v.minValue(0)));
const factsSchema = v.object({
  model: text,
  serial: text,
  firmware: text,
  relayFirmware: text,
  sshEnabled: v.nullable(v.boolean()),
  userCount: count,
  outletsOn: count,
  outletCount: count,
  lastSeen: v.nullable(v.number()),
});
const fileSchema = v.object({ version: v.literal(1), controllers: v.record(v.string(), factsSchema) });

export function loadInventoryCache(file: string): Map<string, KnownFacts> {
  try {
    const parsed = v.safeParse(fileSchema, JSON.parse(readFileSync(file, 'utf8')));
    return parsed.success ? new Map(Object.entries(parsed.output.controllers)) : new Map();
  } catch {
    return new Map();
  }
}

export function saveInventoryCache(file: string, known: ReadonlyMap<string, KnownFacts>): Promise<void> {
  return inTurn(file, async () => {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const temporary = `${file}.${process.pid}.tmp`;
    const body = JSON.stringify({ version: 1, controllers: Object.fromEntries(known) });
    await writeFile(temporary, body, { encoding: 'utf8', mode: 0o600, flag: WRITE_NO_LINK });
    await rename(temporary, file);
  });
}
