import type { Controller } from './controller';
import type { Meters } from './meters';
import { authNode } from './tree-auth';
import { configNode, credNode } from './tree-config';
import { relayNode } from './tree-relay';
import { scriptNode } from './tree-script';
import { type Call, type Container, map, object, readOnly } from './tree';

function meterNode(meters: Meters): Container {
  return object(() => ({
    values: map(() =>
      Object.entries(meters.values()).map(([key, entry]) => [
        key,
        object(() => ({
          name: readOnly(() => entry.name),
          value: readOnly(() => entry.value),
          quantity: readOnly(() => entry.quantity),
          bus: readOnly(() => entry.bus),
        })),
      ]),
    ),
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
    meter: c.meters !== null && meterNode(c.meters),
  }));
}
