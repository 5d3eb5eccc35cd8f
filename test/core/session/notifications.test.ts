import { describe, expect, it } from 'vitest';
import type { ControllerState, Settings } from '../../../src-preload/model';
import { NotificationDecider } from '../../../src-main/core/session/notifications';
import { initialState } from '../../../src-main/core/session/session-state';
import { defaultSettings } from '../../../src-main/core/saved/settings';

const state = (patch: Partial<ControllerState>): ControllerState => ({ ...initialState('c1'), ...patch });
const online = state({ status: 'online' });
const offline = state({
  status: 'offline',
  problem: { code: 'UNREACHABLE', message: 'Cannot reach Bench A.' },
});
const settings = (patch: Partial<Settings> = {}): Settings => ({ ...defaultSettings(), ...patch });

describe('offline and online notices', () => {
  it('announces a controller that went offline for two polls, once, and its return', () => {
    const d = new NotificationDecider();
    expect(d.status('Bench A', online, 0, settings())).toEqual([]);
    expect(d.status('Bench A', offline, 1, settings())).toEqual([]);
    expect(d.status('Bench A', offline, 2, settings())).toEqual([
      { title: 'Bench A is offline', body: 'Cannot reach Bench A.' },
    ]);
    expect(d.status('Bench A', offline, 3, settings())).toEqual([]);
    expect(d.status('Bench A', online, 0, settings())).toEqual([
      { title: 'Bench A is back online', body: 'Plugboard reaches Bench A again.' },
    ]);
    expect(d.status('Bench A', online, 0, settings())).toEqual([]);
  });

  it('stays quiet for a controller never seen online, a single lost answer, and when switched off', () => {
    const d = new NotificationDecider();
    expect(d.status('Bench A', offline, 5, settings())).toEqual([]);
    d.status('Bench A', online, 0, settings());
    expect(d.status('Bench A', offline, 1, settings())).toEqual([]);
    expect(d.status('Bench A', online, 0, settings())).toEqual([]);
    const quiet = settings({
      notifications: { offline: false, outsideChanges: true, meterThresholds: true },
    });
    expect(d.status('Bench A', offline, 2, quiet)).toEqual([]);
    expect(d.status('Bench A', online, 0, quiet)).toEqual([]);
  });

  it('announces a refused login at once', () => {
    const d = new NotificationDecider();
    d.status('Bench A', online, 0, settings());
    const refused = state({
      status: 'auth_failed',
      problem: { code: 'AUTH_FAILED', message: 'Wrong password.' },
    });
    expect(d.status('Bench A', refused, 1, settings())).toEqual([
      { title: 'Bench A does not accept the saved login', body: 'Wrong password.' },
    ]);
  });
});

describe('meter threshold notices', () => {
  const withVolts = (value: number | null) =>
    state({
      status: 'online',
      meters: [{ key: 'buses.0.voltage', name: 'AC voltage', quantity: 'voltage', bus: 0, value, unit: 'V' }],
    });
  const watching = settings({
    meterThresholds: [{ controllerId: 'c1', key: 'buses.0.voltage', min: 110, max: 125 }],
  });

  it('announces leaving the range once, and again only after coming back inside', () => {
    const d = new NotificationDecider();
    expect(d.meters('Bench A', withVolts(120), watching)).toEqual([]);
    expect(d.meters('Bench A', withVolts(128.26), watching)).toEqual([
      {
        title: 'Bench A: AC voltage out of range',
        body: 'AC voltage reads 128.3 V, above the maximum of 125 V.',
      },
    ]);
    expect(d.meters('Bench A', withVolts(129), watching)).toEqual([]);
    expect(d.meters('Bench A', withVolts(null), watching)).toEqual([]);
    expect(d.meters('Bench A', withVolts(121), watching)).toEqual([]);
    expect(d.meters('Bench A', withVolts(100), watching)[0]!.body).toMatch(/below the minimum of 110 V/);
  });

  it('follows the setting and only the thresholds of this controller', () => {
    const d = new NotificationDecider();
    const off = {
      ...watching,
      notifications: { offline: true, outsideChanges: true, meterThresholds: false },
    };
    expect(d.meters('Bench A', withVolts(130), off)).toEqual([]);
    const other = settings({
      meterThresholds: [{ controllerId: 'c2', key: 'buses.0.voltage', min: null, max: 1 }],
    });
    expect(d.meters('Bench A', withVolts(130), other)).toEqual([]);
  });
});

describe('outside change notices', () => {
  it('follow their setting', () => {
    const d = new NotificationDecider();
    expect(d.outsideChange('Bench A', 'Outlet 3 (Scope): off', settings())).toEqual([
      { title: 'Bench A: changed outside Plugboard', body: 'Outlet 3 (Scope): off.' },
    ]);
    const off = settings({ notifications: { offline: true, outsideChanges: false, meterThresholds: true } });
    expect(d.outsideChange('Bench A', 'Outlet 3: off', off)).toEqual([]);
  });
});
