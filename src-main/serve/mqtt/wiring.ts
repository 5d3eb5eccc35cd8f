/**
 * `plugboard serve --mqtt`: the MQTT door's identity resolved against the saved controllers (once, at
 * start, like the tokens' scopes), the bus started, and what the start-up prints about it.
 */
import type { ControllerSummary } from '../../../src-preload/model';
import type { Leadership } from '../../core/index';
import type { Logger } from '../../shared/logging';
import { grantWords, resolveScope } from '../grants';
import { startBus, type BusCore, type RunningBus } from './bus';
import { mqttCaller } from './commands';
import type { MqttConfig } from './mqtt-options';

export interface MqttWiring {
  core: BusCore;
  config: MqttConfig;
  saved: readonly ControllerSummary[];
  serviceName: string;
  version: string;
  leadership: Leadership | null;
  log: Logger;
}

export async function startMqtt(w: MqttWiring): Promise<RunningBus & { lines: string[] }> {
  const { config } = w;
  const scope = resolveScope(config.client.written, w.saved, `--mqtt-client ${config.client.name}`);
  if (typeof scope === 'string') throw new Error(scope);
  const caller = mqttCaller({ who: config.client.name, role: config.client.role, scope });
  const bus = await startBus({
    core: w.core,
    config,
    caller,
    serviceName: w.serviceName,
    version: w.version,
    leadership: w.leadership,
    log: w.log,
  });
  const login = config.credentials
    ? `as ${config.credentials.user} (from ${config.credentialSource})`
    : 'without a login';
  const trust = config.fingerprint
    ? `, broker certificate pinned (SHA-256 ${config.fingerprint})`
    : config.ca
      ? ', broker certificate checked against --mqtt-ca'
      : '';
  return {
    close: () => bus.close(),
    lines: [
      `mqtt: ${config.url} ${login}${trust}; topics under ${config.prefix}/, Home Assistant discovery ${config.haDiscovery ? 'on' : 'off (earlier entries removed)'}.`,
      `mqtt: commands on ${config.prefix}/<serial>/outlet/<n>/set act as ${config.client.name} (${grantWords(config.client.role, scope, w.saved)})${config.client.role === 'observer' ? ': they are refused until --mqtt-client gives a role, like --mqtt-client home-assistant[operator]' : ''}; the broker's access list decides who may publish them.`,
    ],
  };
}
