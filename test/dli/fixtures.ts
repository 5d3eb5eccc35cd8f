/** Static controller answers shaped like a real unit's (used where a fixed server stands in, e.g. Apache). */
export const FIXTURE_OUTLETS = Array.from({ length: 8 }, (_, i) => ({
  critical: false,
  transient_state: i % 2 === 0,
  state: i % 2 === 0,
  physical_state: i % 2 === 0,
  name: `Outlet ${i + 1}`,
  locked: i === 5,
  cycle_delay: null,
}));

export const FIXTURE_METERS = {
  'buses.0.voltage': { name: 'AC voltage', value: 120.25, quantity: 'voltage', bus: 0 },
  'buses.0.current': { name: 'AC current', value: 1.401298464324817e-45, quantity: 'current', bus: 0 },
  'buses.0.total_energy': { name: 'Total energy', value: 3_600_000, quantity: 'energy', bus: 0 },
  'environment.temperature': {
    name: 'Internal temperature',
    value: 310.16,
    quantity: 'temperature',
    bus: null,
  },
};

export const FIXTURE_FILES: Record<string, unknown> = {
  '': { relay: { $ref: 'relay/' }, config: { $ref: 'config/' } },
  'config/version/': '1.12.14.0',
  'config/serial/': 'LPC92712030336',
  'config/hostname/': 'lpc9-bench',
  'relay/model/': 'LPC9',
  'relay/version/': '1.4.0',
  'relay/name/': 'Apache bench',
  'cred/': { name: 'admin', is_admin: true, outlet_access: Array.from({ length: 8 }, () => true) },
  'relay/outlets/': FIXTURE_OUTLETS,
  'meter/values/': FIXTURE_METERS,
};
