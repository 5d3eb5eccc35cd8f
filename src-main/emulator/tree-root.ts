import type { Controller } from './controller';
import { autopingNode } from './tree-autoping';
import { meterNode } from './tree-meter';
import { authNode } from './tree-auth';
import { configNode, credNode } from './tree-config';
import { relayNode } from './tree-relay';
import { scriptNode } from './tree-script';
import { type Call, type Container, object } from './tree';

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
