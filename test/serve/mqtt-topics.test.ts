/**
 * The retained topics and Home Assistant entries computed from a controller's state: what each outlet
 * and meter publishes, a reservation of the whole controller on every outlet, and discovery only once
 * the unit's identity is known, with Home Assistant's classes for each kind of meter.
 */
import { describe, expect, it } from 'vitest';
import type { ControllerState, ControllerSummary, Reservation } from '../../src-preload/model';
import { discoveryTopics } from '../../src-main/serve/mqtt/discovery';
import { controllerTopics, parseCommandTopic, unitUnder } from '../../src-main/serve/mqtt/topics';
import { refused } from '../../src-main/serve/mqtt/commands';

const summary = { id: 'c1', name: 'bench-a', url: 'http://192.0.2.7' } as ControllerSummary;
const outlet = {
  number: 2,
  name: 'Switch',
  state: true,
  transientState: false,
  physicalState: false,
  locked: true,
  critical: true,
  cycleDelay: null,
  access: true,
  pending: { kind: 'cycle', target: true, since: 0 },
  cycleEndsAt: null,
} as const;
const state = {
  id: 'c1',
  status: 'online',
  identity: { serial: 'LPC9/01', model: 'LPC9', firmware: '1.12', relayFirmware: '1.4' },
  outlets: [outlet],
  meters: [
    { key: 'buses.0.total_energy', name: 'Energy', quantity: 'energy', bus: 0, value: null, unit: 'kWh' },
    { key: 'x.other', name: 'Odd', quantity: 'other', bus: null, value: 3, unit: '' },
    { key: 'hidden', name: 'Hidden', quantity: 'voltage', bus: null, value: 1, unit: 'V', internal: true },
  ],
} as unknown as ControllerState;
const whole: Reservation = {
  id: 'r1',
  target: { kind: 'controller', controllerId: 'c1' },
  covers: [{ controllerId: 'c1', outlet: null }],
  holder: 'alice',
  door: 'cli',
  reason: 'firmware',
  createdAt: 0,
  expiresAt: Date.UTC(2026, 10, 27, 16),
};

describe('the topics of a controller', () => {
  it('says each state of each outlet, its reservation, and each meter with its unit', () => {
    const topics = controllerTopics('lab', 'LPC9/01', summary, state, [whole]);
    expect(Object.fromEntries(topics)).toEqual({
      'lab/LPC9_01/status': 'online',
      'lab/LPC9_01/outlet/2/state': 'OFF',
      'lab/LPC9_01/outlet/2/saved': 'ON',
      'lab/LPC9_01/outlet/2/temporary': 'OFF',
      'lab/LPC9_01/outlet/2/pending': 'CYCLE',
      'lab/LPC9_01/outlet/2/locked': 'true',
      'lab/LPC9_01/outlet/2/critical': 'true',
      'lab/LPC9_01/outlet/2/name': 'Switch',
      'lab/LPC9_01/outlet/2/reservation':
        '{"holder":"alice","until":"2026-11-27T16:00:00.000Z","reason":"firmware"}',
      'lab/LPC9_01/meter/buses_0_total_energy': '{"value":null,"unit":"kWh"}',
      'lab/LPC9_01/meter/x_other': '{"value":3,"unit":""}',
    });
    expect(Object.fromEntries(controllerTopics('lab', 'S', summary, null, []))).toEqual({
      'lab/S/status': 'offline',
    });
    expect(parseCommandTopic('lab', 'lab/LPC9_01/outlet/2/set')).toEqual({
      serialLevel: 'LPC9_01',
      outlet: 2,
    });
    expect(parseCommandTopic('lab', 'lab/LPC9_01/outlet/2/state')).toBeNull();
  });
});

describe('Home Assistant discovery', () => {
  it('waits for the identity, and gives energy a total and an unknown kind no class', () => {
    const input = { prefix: 'lab', serial: 'LPC9/01', name: 'bench-a', version: '1.0', url: summary.url };
    expect(discoveryTopics({ ...input, state: { ...state, identity: null } }).size).toBe(0);
    const entries = discoveryTopics({ ...input, state });
    expect([...entries.keys()]).toEqual([
      'homeassistant/switch/lab/LPC9_01_outlet_2/config',
      'homeassistant/sensor/lab/LPC9_01_meter_buses_0_total_energy/config',
      'homeassistant/sensor/lab/LPC9_01_meter_x_other/config',
    ]);
    const energy = JSON.parse(
      entries.get('homeassistant/sensor/lab/LPC9_01_meter_buses_0_total_energy/config')!,
    );
    expect(energy).toMatchObject({
      device_class: 'energy',
      state_class: 'total_increasing',
      unit_of_measurement: 'kWh',
    });
    const odd = JSON.parse(entries.get('homeassistant/sensor/lab/LPC9_01_meter_x_other/config')!);
    expect(odd.device_class).toBeUndefined();
    expect(odd.device).toMatchObject({
      model: 'LPC9',
      sw_version: '1.12',
      hw_version: 'relay 1.4',
      serial_number: 'LPC9/01',
    });
  });
});

describe('a refusal over MQTT', () => {
  it('says how to confirm a critical outlet, and how to give the door a role', () => {
    const base = { outlet: 'S-2', command: 'OFF' };
    expect(refused(base, { code: 'CRITICAL_UNCONFIRMED', message: 'Outlet 2 is critical.' }).message).toBe(
      'Outlet 2 is critical. Over MQTT, send it again with confirm=S-2 (like "OFF confirm=S-2") to confirm that this critical outlet may go off.',
    );
    expect(
      refused(base, { code: 'FORBIDDEN', message: 'mqtt may only read.', action: 'Ask.' }).message,
    ).toMatch(/^mqtt may only read\. Commands over MQTT act as the one client --mqtt-client names/);
  });
});

describe("a unit's message and the controller it belongs to", () => {
  it('goes to the deepest root it is under, whatever order the roots were saved in', () => {
    const roots = new Map([
      ['lab/a', 'outer'],
      ['lab/a/b', 'inner'],
      ['lab/ab', 'sibling'],
    ]);
    expect(unitUnder(roots, 'lab/a/b/outlets/0')).toEqual({ controllerId: 'inner', root: 'lab/a/b' });
    expect(unitUnder(new Map([...roots].reverse()), 'lab/a/b/outlets/0')?.controllerId).toBe('inner');
    expect(unitUnder(roots, 'lab/a/outlets/3')).toEqual({ controllerId: 'outer', root: 'lab/a' });
    expect(unitUnder(roots, 'lab/ab/outlets/1')?.controllerId).toBe('sibling');
    expect(unitUnder(roots, 'lab/a')).toBeNull();
    expect(unitUnder(roots, 'lab/c/outlets/0')).toBeNull();
  });
});
