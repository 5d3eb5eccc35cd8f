/** Pure parts of the client: outlet numbering, firmware gates, meter conversions, script arguments. */
import { describe, expect, it } from 'vitest';
import { PlugboardError } from '../../src-main/shared/errors';
import { compareFirmware, parseFirmware, requireFeature, supports } from '../../src-main/dli/firmware';
import { byKey, meterReadings, kelvinToFahrenheit, celsiusToFahrenheit } from '../../src-main/dli/meters';
import {
  accessFromNumbers,
  apiIndexOf,
  numbersFromAccess,
  outletSegment,
  transientStatePairs,
} from '../../src-main/dli/outlet-numbers';
import { callExpression } from '../../src-main/dli/script-source';
import { treePath } from '../../src-main/dli/api-system';
import { normalizeFingerprint } from '../../src-main/dli/tls-pin';

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return error instanceof PlugboardError ? error.code : 'not a PlugboardError';
  }
  return undefined;
}

describe('outlet numbers', () => {
  it('converts 1-based outlets to 0-based API indices and selectors', () => {
    expect(apiIndexOf(1, 8, 'A')).toBe(0);
    expect(apiIndexOf(8, 8, 'A')).toBe(7);
    expect(outletSegment([3], 8, 'A')).toEqual({ segment: '2', numbers: [3], matrix: false });
    expect(outletSegment([7, 1, 4, 1], 8, 'A')).toEqual({
      segment: '=0,3,6',
      numbers: [1, 4, 7],
      matrix: true,
    });
    expect(outletSegment('all', 8, 'A')).toEqual({ segment: 'all;', numbers: null, matrix: true });
    expect(
      transientStatePairs(
        [
          { outlet: 1, on: false },
          { outlet: 8, on: true },
        ],
        8,
        'A',
      ),
    ).toEqual([
      [
        [0, false],
        [7, true],
      ],
    ]);
    expect(accessFromNumbers([1, 3], 4, 'A')).toEqual([true, false, true, false]);
    expect(numbersFromAccess([false, true, true])).toEqual([2, 3]);
  });

  it('refuses outlets the controller does not have, naming its range', () => {
    expect(codeOf(() => apiIndexOf(0, 8, 'A'))).toBe('BAD_INPUT');
    expect(codeOf(() => apiIndexOf(1.5, 8, 'A'))).toBe('BAD_INPUT');
    expect(() => apiIndexOf(9, 8, 'Bench A')).toThrow(
      'Outlet 9 does not exist on Bench A: it has outlets 1 to 8.',
    );
    expect(apiIndexOf(12, null, 'A')).toBe(11);
    // A unit that reported no outlets has no range to name.
    expect(() => apiIndexOf(3, 0, 'Bench A')).toThrow(
      'Bench A reported no outlets, so there is no outlet 3 to switch.',
    );
    expect(codeOf(() => apiIndexOf(3, 0, 'A'))).toBe('DEVICE_ERROR');
    expect(codeOf(() => outletSegment([], 8, 'A'))).toBe('BAD_INPUT');
  });
});

describe('firmware gates', () => {
  it('compares dotted versions with missing parts as zero', () => {
    expect(parseFirmware('1.12.14.0')).toEqual([1, 12, 14, 0]);
    expect(compareFirmware([1, 10, 11], [1, 10, 11, 0])).toBe(0);
    expect(supports('1.10.11.0', 'simultaneousSwitching')).toBe(true);
    expect(supports('1.10.10.9', 'simultaneousSwitching')).toBe(false);
    expect(supports('1.11.5.9', 'reboot')).toBe(false);
    expect(supports('1.11.6.0', 'reboot')).toBe(true);
    expect(supports('1.9.3', 'tokens')).toBe(false);
    expect(supports('weird', 'reboot')).toBe(true);
  });

  it('fails fast with UNSUPPORTED_FIRMWARE naming the version needed', () => {
    try {
      requireFeature('1.7.15.0', 'reboot', 'Bench A');
      expect.unreachable();
    } catch (error) {
      expect(error).toMatchObject({ code: 'UNSUPPORTED_FIRMWARE', detail: { requiredFirmware: '1.11.6.0' } });
      expect((error as Error).message).toMatch(/1\.11\.6\.0 or newer; Bench A runs 1\.7\.15\.0/);
    }
  });
});

describe('meters', () => {
  it('converts exactly as the controller states: J→kWh, K→°C, tiny currents to zero', () => {
    const readings = meterReadings({
      'buses.0.voltage': { name: 'AC voltage', value: 120.5, quantity: 'voltage', bus: 0 },
      'buses.0.current': { name: 'AC current', value: 1.401298464324817e-45, quantity: 'current', bus: 0 },
      'buses.0.total_energy': { name: 'Total energy', value: 3_600_000, quantity: 'energy', bus: 0 },
      'environment.temperature': { name: 'Internal', value: 300, quantity: 'temperature', bus: null },
      'sensors.0.relative_humidity': {
        name: 'Humidity',
        value: 41.5,
        quantity: 'relative_humidity',
        bus: null,
      },
      'sensors.0.temperature': { name: 'Probe', value: null, quantity: 'temperature', bus: null },
    });
    const byKey = Object.fromEntries(readings.map((r) => [r.key, r]));
    expect(byKey['buses.0.voltage']).toMatchObject({ value: 120.5, unit: 'V', bus: 0, quantity: 'voltage' });
    expect(byKey['buses.0.current']).toMatchObject({ value: 0, unit: 'A' });
    expect(byKey['buses.0.total_energy']!.value).toBe(3_600_000 * 0.00000027778);
    expect(byKey['buses.0.total_energy']!.unit).toBe('kWh');
    expect(byKey['environment.temperature']!.value).toBe(300 - 273.16);
    expect(byKey['environment.temperature']!.unit).toBe('°C');
    expect(byKey['sensors.0.relative_humidity']).toMatchObject({
      value: 41.5,
      unit: '%',
      quantity: 'humidity',
    });
    expect(byKey['sensors.0.temperature']!.value).toBeNull();
    expect(kelvinToFahrenheit(300)).toBe((9 / 5) * (300 - 273.16) + 32);
    expect(celsiusToFahrenheit(300 - 273.16)).toBeCloseTo(kelvinToFahrenheit(300), 10);
  });
});

describe('meter order', () => {
  it('sorts keys as the English collation with numbers does, without building one', () => {
    const keys = [
      'buses.10.voltage',
      'buses.2.voltage',
      'Buses.1.current',
      'buses.1.current',
      'power_voltage',
      'power.voltage',
      'power-voltage',
      'power1',
      'sensors.01.humidity',
      'sensors.1.humidity',
      'sensors.10',
      'sensors.9z',
      'environment.temperature',
      'a01b',
      'a1b',
    ];
    const collate = (list: string[]) => list.sort((a, b) => a.localeCompare(b, 'en', { numeric: true }));
    // Both ways round: keys equal but for zeros before a number keep their order in either.
    for (const order of [keys, [...keys].reverse()])
      expect([...order].sort(byKey)).toEqual(collate([...order]));
  });
});

describe('script arguments', () => {
  it('builds a call expression from typed values, never raw code', () => {
    expect(callExpression('cycle_an_outlet', [5, 10])).toBe('cycle_an_outlet(5,10)');
    expect(callExpression('flash_a_light', [])).toBeNull();
    expect(callExpression('f', [true, -2.5, 'a"b\\c'])).toBe('f(true,-2.5,"a\\034b\\092c")');
    expect(callExpression('f', ['x") os.execute("rm -rf /'])).toBe('f("x\\034) os.execute(\\034rm -rf /")');
    expect(callExpression('f', ['é\n'])).toBe('f("\\195\\169\\010")');
  });

  it('refuses function names and values that are not plain data', () => {
    expect(codeOf(() => callExpression('os.execute', []))).toBe('BAD_INPUT');
    expect(codeOf(() => callExpression('end', []))).toBe('BAD_INPUT');
    expect(codeOf(() => callExpression('f', [Number.NaN]))).toBe('BAD_INPUT');
    expect(codeOf(() => callExpression('f', [Infinity]))).toBe('BAD_INPUT');
    expect(codeOf(() => callExpression('f', [{} as unknown as number]))).toBe('BAD_INPUT');
  });
});

describe('tree paths and fingerprints', () => {
  it('encodes typed paths but keeps matrix syntax', () => {
    expect(treePath('')).toBe('');
    expect(treePath('/restapi/relay/outlets/')).toBe('relay/outlets/');
    expect(treePath('relay/outlets/all;/=name,state')).toBe('relay/outlets/all;/=name,state/');
    expect(treePath('auth/users/name=fred bloggs')).toBe('auth/users/name=fred%20bloggs/');
    expect(codeOf(() => treePath('relay/../config'))).toBe('BAD_INPUT');
    expect(codeOf(() => treePath('relay?x=1'))).toBe('BAD_INPUT');
  });

  it('normalizes fingerprints to upper-case pairs with colons', () => {
    const hex = 'ab'.repeat(32);
    expect(normalizeFingerprint(hex)).toBe(Array(32).fill('AB').join(':'));
  });
});
