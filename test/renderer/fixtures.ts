import {
  DEFAULT_SETTINGS,
  type AccountSummary,
  type AppSnapshot,
  type Capabilities,
  type ControllerState,
  type ControllerSummary,
  type DeviceUser,
  type MeterReading,
  type OutletState,
} from '../../src-preload/model';

/** Realistic data shaped like what the Core sends; every builder takes overrides. */

/** A lab account as `accounts/list` lists it: an operator of everything, with a password, signed out. */
export function accountSummary(overrides: Partial<AccountSummary> = {}): AccountSummary {
  return {
    name: 'ada',
    displayName: '',
    role: 'operator',
    scope: { kind: 'all' },
    createdAt: 1_700_000_000_000,
    disabled: false,
    hasPassword: true,
    sessions: 0,
    ...overrides,
  };
}

export function summary(overrides: Partial<ControllerSummary> = {}): ControllerSummary {
  return {
    id: 'bench-a',
    name: 'Bench A',
    url: 'http://192.168.0.100',
    auth: 'digest',
    user: 'admin',
    hasSecret: true,
    fingerprint: null,
    colour: '#3b82f6',
    order: 0,
    demo: false,
    mqttTopic: null,
    ...overrides,
  };
}

const NAMES = ['Router', 'Server', 'Switch', 'Scope', 'Camera', 'Fan', 'Lamp', 'Spare'];

export function outlet(number: number, overrides: Partial<OutletState> = {}): OutletState {
  const on = number % 2 === 1;
  return {
    number,
    name: NAMES[number - 1] ?? `Outlet ${number}`,
    state: on,
    transientState: on,
    physicalState: on,
    locked: false,
    critical: false,
    cycleDelay: null,
    access: true,
    pending: null,
    cycleEndsAt: null,
    ...overrides,
  };
}

export function capabilities(overrides: Partial<Capabilities> = {}): Capabilities {
  const outletCount = overrides.outletCount ?? 8;
  return {
    simultaneousSwitching: true,
    reboot: true,
    tokens: true,
    meters: true,
    isAdmin: true,
    outletCount,
    outletAccess: Array(outletCount).fill(true),
    ...overrides,
  };
}

export function meters(): MeterReading[] {
  return [
    { key: 'buses.0.voltage', name: 'Voltage', quantity: 'voltage', bus: 0, value: 118.6, unit: 'V' },
    {
      key: 'buses.0.current',
      name: 'Current',
      quantity: 'current',
      bus: 0,
      value: 1.401298464324817e-45,
      unit: 'A',
    },
    { key: 'buses.0.total_energy', name: 'Energy', quantity: 'energy', bus: 0, value: 12.3456, unit: 'kWh' },
    {
      key: 'internal_temperature',
      name: 'Internal temperature',
      quantity: 'temperature',
      bus: null,
      value: 40,
      unit: '°C',
    },
    {
      key: 'sensors.0.temperature',
      name: 'Sensor temperature',
      quantity: 'temperature',
      bus: null,
      value: 21.5,
      unit: '°C',
    },
    { key: 'sensors.0.humidity', name: 'Humidity', quantity: 'humidity', bus: null, value: 45, unit: '%' },
  ];
}

export function users(): DeviceUser[] {
  return [
    { name: 'admin', isAdmin: true, isAllowed: true, outletAccess: Array(8).fill(true) },
    {
      name: 'tech',
      isAdmin: false,
      isAllowed: true,
      outletAccess: [true, true, false, false, true, false, false, false],
    },
  ];
}

export function controllerState(overrides: Partial<ControllerState> = {}): ControllerState {
  const caps = overrides.capabilities === undefined ? capabilities() : overrides.capabilities;
  const count = caps?.outletCount ?? 8;
  return {
    id: 'bench-a',
    status: 'online',
    problem: null,
    identity: {
      controllerName: 'Bench A',
      model: 'Web Power Switch Pro',
      serial: 'PRO-0012345',
      firmware: '1.12.14.0',
      relayFirmware: '1.0.0',
      hostname: 'lpc9',
    },
    capabilities: caps,
    outlets: Array.from({ length: count }, (_, i) => outlet(i + 1)),
    meters: meters(),
    scripts: { functions: ['cycle_an_outlet', 'flash_a_light', 'all_off'], threads: [] },
    users: users(),
    sshEnabled: false,
    relayTiming: { cycleDelay: 4, sequenceDelay: 1 },
    lastUpdate: Date.now(),
    rebootingSince: null,
    ...overrides,
  };
}

/** What `app/snapshot` answers: nothing saved unless given, the default settings. */
export function snapshot(overrides: Partial<AppSnapshot> = {}): AppSnapshot {
  return {
    info: { name: 'Plugboard', version: '0.1.0', shell: 'test', platform: 'linux' },
    controllers: [],
    states: [],
    groups: [],
    settings: DEFAULT_SETTINGS,
    ...overrides,
  };
}
