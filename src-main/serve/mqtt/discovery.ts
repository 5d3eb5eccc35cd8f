/**
 * Home Assistant's MQTT discovery (single-component schema): one retained config per entity at
 * `homeassistant/<component>/<node>/<object>/config`, the node being Plugboard's prefix as an id and the
 * object `<serial>_outlet_<n>` or `<serial>_meter_<key>`. Each outlet is a switch and each meter a sensor,
 * grouped as one device per controller (identifiers, model, serial, firmware); they are available while
 * both the service and the controller say `online`. An empty retained payload removes one.
 */
import type { ControllerState, MeterReading } from '../../../src-preload/model';
import { HA_PREFIX } from './mqtt-options';
import { controllerRoot, meterLevel, outletRoot, serviceTopic, topicId, type Retained } from './topics';

/** The node level of every Plugboard entry (the topic prefix as an id): one subscription finds them all. */
export function discoveryNode(prefix: string): string {
  return topicId(prefix);
}

/** Home Assistant's sensor classes and state classes for Plugboard's quantities (its documented set). */
const SENSOR_CLASS: Record<string, { device_class: string; state_class: string } | undefined> = {
  voltage: { device_class: 'voltage', state_class: 'measurement' },
  current: { device_class: 'current', state_class: 'measurement' },
  power: { device_class: 'power', state_class: 'measurement' },
  // A meter's energy counts up from its last reset: Home Assistant's long-term statistics follow it.
  energy: { device_class: 'energy', state_class: 'total_increasing' },
  temperature: { device_class: 'temperature', state_class: 'measurement' },
  humidity: { device_class: 'humidity', state_class: 'measurement' },
};

export interface DiscoveryInput {
  prefix: string;
  serial: string;
  /** Plugboard's name for the controller: the device's name in Home Assistant. */
  name: string;
  state: ControllerState | null;
  version: string;
  /** Where the controller's own pages are (the device's configuration link). */
  url: string;
}

/**
 * Every discovery entry of one controller (topic → JSON). None before the unit's identity (model,
 * firmware) is read, so Home Assistant sees each device whole, never updated a moment later.
 */
export function discoveryTopics(input: DiscoveryInput): Retained {
  const { prefix, serial, state } = input;
  if (!state?.identity) return new Map();
  const node = discoveryNode(prefix);
  const id = topicId(serial);
  const identity = state?.identity;
  const device = {
    identifiers: [`${node}_${id}`],
    name: input.name,
    manufacturer: 'Digital Loggers',
    ...(identity?.model ? { model: identity.model } : {}),
    serial_number: serial,
    ...(identity?.firmware ? { sw_version: identity.firmware } : {}),
    ...(identity?.relayFirmware ? { hw_version: `relay ${identity.relayFirmware}` } : {}),
    configuration_url: input.url,
  };
  const shared = {
    availability: [{ topic: serviceTopic(prefix) }, { topic: `${controllerRoot(prefix, serial)}/status` }],
    availability_mode: 'all',
    device,
    origin: { name: 'Plugboard', sw_version: input.version },
  };
  const topics: Retained = new Map();
  for (const outlet of state?.outlets ?? []) {
    const object = `${id}_outlet_${outlet.number}`;
    const base = outletRoot(prefix, serial, outlet.number);
    topics.set(
      `${HA_PREFIX}/switch/${node}/${object}/config`,
      JSON.stringify({
        name: outlet.name || `Outlet ${outlet.number}`,
        unique_id: `${node}_${object}`,
        device_class: 'outlet',
        state_topic: `${base}/state`,
        command_topic: `${base}/set`,
        payload_on: 'ON',
        payload_off: 'OFF',
        ...shared,
      }),
    );
  }
  for (const meter of state?.meters ?? []) {
    if (meter.internal) continue;
    const object = `${id}_meter_${meterLevel(meter.key)}`;
    topics.set(
      `${HA_PREFIX}/sensor/${node}/${object}/config`,
      JSON.stringify({
        name: meter.name || meter.key,
        unique_id: `${node}_${object}`,
        state_topic: `${controllerRoot(prefix, serial)}/meter/${meterLevel(meter.key)}`,
        // A meter without a reading sends null, which renders "None": Home Assistant shows it unknown.
        value_template: '{{ value_json.value }}',
        ...sensorClass(meter),
        ...shared,
      }),
    );
  }
  return topics;
}

function sensorClass(meter: MeterReading): Record<string, string> {
  const known = SENSOR_CLASS[meter.quantity];
  const unit: Record<string, string> = meter.unit ? { unit_of_measurement: meter.unit } : {};
  // A meter of another quantity keeps its unit, with no class Home Assistant would check it against.
  return known && meter.unit ? { ...known, ...unit } : { state_class: 'measurement', ...unit };
}
