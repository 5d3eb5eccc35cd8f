/**
 * The fleet calls (issue 16): the inventory, and the wiring the activity log's new attributions need —
 * outlet names in entries and changes made by scripts Plugboard started (fleet-scripts.ts). `startFleet`
 * runs once per Core; `fleetHandlers` once per actor.
 */
import { join } from 'node:path';
import type { Handlers } from '../../src-preload/contract';
import type { CoreContext } from './core-context';
import { exportFilename } from './activity/activity-export';
import { FleetInventory } from './fleet-inventory';
import { ScriptAttribution } from './fleet-scripts';
import { inventoryCsv } from './inventory-rows';

type FleetHandlers = Pick<Handlers, 'fleet/inventory' | 'fleet/inventoryCsv'>;

export interface Fleet {
  inventory: FleetInventory;
  scripts: ScriptAttribution;
}

/** The inventory's cache of last known values in the config folder. */
export const INVENTORY_FILE = 'inventory.json';

export function startFleet(ctx: CoreContext, dataDir: string | null = null): Fleet {
  const inventory = new FleetInventory(ctx, dataDir ? join(dataDir, INVENTORY_FILE) : null);
  const scripts = new ScriptAttribution();
  ctx.activity.enrich({
    outletName: (controllerId, outlet) =>
      ctx.sessions.find(controllerId)?.lastOutlets?.find((o) => o.number === outlet)?.name ?? null,
    attribute: (entry) => scripts.attribute(entry),
    scriptStarted: (controllerId, threadId, fn, actor) => scripts.started(controllerId, threadId, fn, actor),
  });
  ctx.events.subscribe((name, payload) => {
    if (name === 'state/changed') {
      const state = payload as Parameters<FleetInventory['seen']>[0];
      inventory.seen(state);
      scripts.seen(state);
    }
  });
  return { inventory, scripts };
}

export function fleetHandlers(ctx: CoreContext, fleet: Fleet): FleetHandlers {
  return {
    'fleet/inventory': async ({ wait, timeoutMs }) =>
      wait ? fleet.inventory.rowsWhenRead(timeoutMs ?? 20_000) : fleet.inventory.rows(),
    'fleet/inventoryCsv': async () => ({
      filename: exportFilename('inventory', 'csv', ctx.clock.now()),
      text: inventoryCsv(fleet.inventory.rows()),
    }),
  };
}
