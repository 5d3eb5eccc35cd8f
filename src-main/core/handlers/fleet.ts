/** The fleet calls: the inventory as rows or as CSV, answered from the Core's fleet (fleet-wiring.ts). */
import type { Handlers } from '../../../src-preload/contract';
import type { CoreContext } from '../flows/core-context';
import { exportFilename } from '../activity/activity-export';
import type { Fleet } from '../fleet/fleet-wiring';
import { inventoryCsv } from '../fleet/inventory-rows';

type FleetHandlers = Pick<Handlers, 'fleet/inventory' | 'fleet/inventoryCsv'>;

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
