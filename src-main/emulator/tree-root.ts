import type { Controller } from './controller';
import type { Json } from './http-error';
import type { Meters } from './meters';
import { autopingNode } from './tree-autoping';
import { authNode } from './tree-auth';
import { configNode, credNode } from './tree-config';
import { relayNode } from './tree-relay';
import { scriptNode } from './tree-script';
import { type Call, type Container, map, object, readOnly } from './tree';

/** Each entry an object of read-only fields, in the order the entry lists them. */
function entriesNode(values: () => Record<string, object>): Container {
  return map(() =>
    Object.entries(values()).map(([key, entry]) => [
      key,
      object(() =>
        Object.fromEntries(
          Object.entries(entry).map(([field, value]) => [field, readOnly(() => value as Json)]),
        ),
      ),
    ]),
  );
}

function meterNode(c: Controller, meters: Meters): Container {
  const objectMeters = c.objectMeters;
  return object(() => ({
    values: entriesNode(() => (objectMeters ? objectMeters.values() : meters.values())),
  }));
}

/** The whole object tree under `/restapi/`, gated by firmware and hardware. */
export function rootNode(c: Controller, reboot: () => void): Container {
  const rebootCall: Call = {
    kind: 'call',
    invoke: () => ({ status: 204 }),
    // A moment's grace so the answer reaches the client before every connection is cut.
    after: () => setTimeout(reboot, 150),
  };
  return object(() => ({
    relay: relayNode(c),
    config: configNode(c),
    auth: authNode(c),
    cred: credNode(c),
    script: scriptNode(c),
    system: c.features.reboot && object(() => ({ reboot: rebootCall })),
    meter: c.meters !== null && meterNode(c, c.meters),
    autoping: c.autoping !== null && autopingNode(c, c.autoping),
  }));
}
