/**
 * The fleet, started once per Core: the inventory, and the wiring the activity log's attributions need —
 * outlet names in entries and changes made by scripts Plugboard started (fleet-scripts.ts). The
 * `fleet/*` calls answer from it (handlers/fleet.ts).
 */
import { join } from 'node:path';
import type { ActivityLog } from '../activity/activity-log';
import type { EventHub } from '../kernel/event-hub';
import { FleetInventory, type InventoryContext } from './fleet-inventory';
import { ScriptAttribution } from './fleet-scripts';

/** What the fleet reads of the Core (the Core's context passes itself). */
export interface FleetContext extends InventoryContext {
  activity: ActivityLog;
  events: EventHub;
}

export interface Fleet {
  inventory: FleetInventory;
  scripts: ScriptAttribution;
}

/** The inventory's cache of last known values in the config folder. */
export const INVENTORY_FILE = 'inventory.json';

export function startFleet(ctx: FleetContext, dataDir: string | null = null): Fleet {
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
