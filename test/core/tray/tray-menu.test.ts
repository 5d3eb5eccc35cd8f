import { describe, expect, it } from 'vitest';
import type {
  ControllerState,
  ControllerSummary,
  Group,
  OutletState,
  Reservation,
} from '../../../src-preload/model';
import {
  buildTrayMenu,
  trayIconState,
  type TrayMenuItem,
  type TrayState,
} from '../../../src-main/core/tray/tray-menu';

function summary(id: string, name: string, extra: Partial<ControllerSummary> = {}): ControllerSummary {
  return {
    id,
    name,
    url: `http://${id}`,
    auth: 'digest',
    user: 'admin',
    hasSecret: true,
    fingerprint: null,
    colour: '#3b82f6',
    order: 0,
    demo: false,
    mqttTopic: null,
    ...extra,
  };
}

function outlet(number: number, on: boolean, extra: Partial<OutletState> = {}): OutletState {
  return {
    number,
    name: `Outlet ${number}`,
    state: on,
    transientState: on,
    physicalState: on,
    locked: false,
    critical: false,
    cycleDelay: null,
    access: true,
    pending: null,
    cycleEndsAt: null,
    ...extra,
  };
}

function live(id: string, outlets: OutletState[], extra: Partial<ControllerState> = {}): ControllerState {
  return {
    id,
    status: 'online',
    problem: null,
    identity: null,
    capabilities: null,
    outlets,
    meters: null,
    scripts: null,
    users: null,
    sshEnabled: null,
    relayTiming: { cycleDelay: null, sequenceDelay: null },
    lastUpdate: 1,
    rebootingSince: null,
    ...extra,
  };
}

function tray(extra: Partial<TrayState> = {}): TrayState {
  return { controllers: [], states: [], groups: [], favourites: [], windowVisible: false, ...extra };
}

function find(menu: TrayMenuItem[], id: string): TrayMenuItem {
  for (const item of menu) {
    if (item.id === id) return item;
    if (item.type === 'submenu') {
      try {
        return find(item.submenu, id);
      } catch {
        // keep looking
      }
    }
  }
  throw new Error(`no item ${id}`);
}

const ids = (menu: TrayMenuItem[]) => menu.map((i) => i.id);

const benchA = summary('a', 'Bench A');
const benchB = summary('b', 'Bench B');

describe('buildTrayMenu', () => {
  it('offers only the app items when nothing is saved', () => {
    const menu = buildTrayMenu(tray());
    expect(menu).toEqual([
      { type: 'normal', id: 'empty', label: 'No controllers yet', enabled: false, action: null },
      { type: 'separator', id: 'sep:app' },
      { type: 'normal', id: 'window', label: 'Open Plugboard', enabled: true, action: { kind: 'open' } },
      { type: 'normal', id: 'quit', label: 'Quit', enabled: true, action: { kind: 'quit' } },
    ]);
  });

  it('offers "Hide Plugboard" while the window is showing', () => {
    expect(find(buildTrayMenu(tray({ windowVisible: true })), 'window')).toMatchObject({
      label: 'Hide Plugboard',
      action: { kind: 'hide' },
    });
  });

  it('has one submenu per controller, in order, with a checkbox per reported outlet', () => {
    const outlets = [
      outlet(1, true, { name: 'Router' }),
      outlet(2, false),
      outlet(3, true),
      outlet(4, false),
      outlet(5, false),
    ];
    const menu = buildTrayMenu(
      tray({ controllers: [benchB, benchA], states: [live('a', outlets), live('b', [outlet(1, false)])] }),
    );
    expect(ids(menu)).toEqual(['ctl:b', 'ctl:a', 'sep:app', 'window', 'quit']);
    const a = find(menu, 'ctl:a');
    expect(a).toMatchObject({ type: 'submenu', label: 'Bench A', sublabel: 'Online' });
    if (a.type !== 'submenu') throw new Error('submenu expected');
    // Five outlets reported, five items: the count comes from the controller.
    expect(a.submenu).toHaveLength(5);
    expect(a.submenu[0]).toEqual({
      type: 'checkbox',
      id: 'ctl:a:1',
      label: '1 · Router',
      checked: true,
      enabled: true,
      action: { kind: 'set', controllerId: 'a', outlet: 1, on: false },
    });
    expect(a.submenu[1]).toMatchObject({
      label: 'Outlet 2',
      checked: false,
      action: { kind: 'set', controllerId: 'a', outlet: 2, on: true },
    });
  });

  it('shows the physical state, not the requested one', () => {
    const o = outlet(1, false, { state: true, transientState: true, physicalState: false });
    expect(
      find(buildTrayMenu(tray({ controllers: [benchA], states: [live('a', [o])] })), 'ctl:a:1'),
    ).toMatchObject({ checked: false });
  });

  it('disables locked, forbidden and pending outlets and says why', () => {
    const outlets = [
      outlet(1, true, { locked: true }),
      outlet(2, false, { access: false }),
      outlet(3, false, { pending: { kind: 'state', target: true, since: 1 } }),
      outlet(4, true, { pending: { kind: 'state', target: false, since: 1 } }),
      outlet(5, true, { pending: { kind: 'cycle', target: true, since: 1 } }),
    ];
    const menu = buildTrayMenu(tray({ controllers: [benchA], states: [live('a', outlets)] }));
    expect(find(menu, 'ctl:a:1')).toMatchObject({
      enabled: false,
      checked: true,
      action: null,
      sublabel: expect.stringMatching(/^Locked/),
    });
    expect(find(menu, 'ctl:a:2')).toMatchObject({
      enabled: false,
      action: null,
      sublabel: 'This user may not switch this outlet',
    });
    expect(find(menu, 'ctl:a:3')).toMatchObject({
      enabled: false,
      checked: false,
      label: 'Outlet 3 …',
      sublabel: 'Switching on…',
    });
    expect(find(menu, 'ctl:a:4')).toMatchObject({
      enabled: false,
      checked: true,
      sublabel: 'Switching off…',
    });
    expect(find(menu, 'ctl:a:5')).toMatchObject({ enabled: false, sublabel: 'Cycling…' });
  });

  it('never switches a critical outlet off from the tray: the window confirms', () => {
    const outlets = [
      outlet(1, true, { critical: true, name: 'Core switch' }),
      outlet(2, false, { critical: true }),
    ];
    const menu = buildTrayMenu(tray({ controllers: [benchA], states: [live('a', outlets)] }));
    expect(find(menu, 'ctl:a:1')).toMatchObject({
      enabled: true,
      checked: true,
      sublabel: 'Critical: asks in the window before switching off',
      action: {
        kind: 'confirm',
        request: {
          controllerId: 'a',
          outlets: [1],
          action: 'off',
          reason: 'Outlet 1 (Core switch) on Bench A is marked critical.',
        },
      },
    });
    // Switching a critical outlet on is harmless.
    expect(find(menu, 'ctl:a:2')).toMatchObject({
      action: { kind: 'set', controllerId: 'a', outlet: 2, on: true },
    });
  });

  it.each([
    ['offline', 'Offline'],
    ['auth_failed', 'Auth problem'],
    ['api_disabled', 'API disabled'],
    ['rebooting', 'Rebooting'],
    ['connecting', 'Connecting'],
  ] as const)('shows a %s controller without switchable outlets', (status, words) => {
    const menu = buildTrayMenu(
      tray({ controllers: [benchA], states: [live('a', [outlet(1, true)], { status })] }),
    );
    const sub = find(menu, 'ctl:a');
    expect(sub).toMatchObject({ sublabel: words });
    if (sub.type !== 'submenu') throw new Error('submenu expected');
    expect(sub.submenu).toEqual([
      { type: 'normal', id: 'ctl:a:status', label: words, enabled: false, action: null },
    ]);
  });

  it('prefers the problem message for a controller in trouble, and says when nothing is known yet', () => {
    const problem = { code: 'UNREACHABLE' as const, message: 'Nothing answers at 10.0.0.5.' };
    const menu = buildTrayMenu(
      tray({ controllers: [benchA, benchB], states: [live('a', [], { status: 'offline', problem })] }),
    );
    expect(find(menu, 'ctl:a:status')).toMatchObject({ label: 'Nothing answers at 10.0.0.5.' });
    expect(find(menu, 'ctl:b')).toMatchObject({ sublabel: 'Not connected yet' });
  });

  it('marks demo controllers', () => {
    const menu = buildTrayMenu(tray({ controllers: [summary('d', 'Lab demo', { demo: true })] }));
    expect(find(menu, 'ctl:d')).toMatchObject({ label: 'Lab demo (demo)' });
  });

  it('pins favourites across controllers at the top, in the chosen order', () => {
    const states = [
      live('a', [outlet(1, true), outlet(2, false, { name: 'Scope' })]),
      live('b', [outlet(7, true, { critical: true })], {}),
    ];
    const favourites = [
      { controllerId: 'b', outlet: 7 },
      { controllerId: 'a', outlet: 2 },
      { controllerId: 'gone', outlet: 1 },
      { controllerId: 'a', outlet: 9 },
    ];
    const menu = buildTrayMenu(tray({ controllers: [benchA, benchB], states, favourites }));
    expect(ids(menu)).toEqual([
      'fav:b:7',
      'fav:a:2',
      'fav:a:9',
      'sep:favourites',
      'ctl:a',
      'ctl:b',
      'sep:app',
      'window',
      'quit',
    ]);
    expect(menu[0]).toMatchObject({ label: 'Bench B › Outlet 7', action: { kind: 'confirm' } });
    expect(menu[1]).toMatchObject({
      label: 'Bench A › 2 · Scope',
      checked: false,
      action: { kind: 'set', controllerId: 'a', outlet: 2, on: true },
    });
    expect(menu[2]).toMatchObject({
      label: 'Bench A › Outlet 9',
      enabled: false,
      sublabel: 'Bench A has no outlet 9',
    });
  });

  it('shows a favourite of an offline controller disabled', () => {
    const menu = buildTrayMenu(
      tray({
        controllers: [benchA],
        states: [live('a', [outlet(1, true)], { status: 'offline' })],
        favourites: [{ controllerId: 'a', outlet: 1 }],
      }),
    );
    expect(menu[0]).toMatchObject({
      id: 'fav:a:1',
      enabled: false,
      checked: false,
      sublabel: 'Offline',
      action: null,
    });
  });

  describe('groups', () => {
    const group = (id: string, name: string, members: Group['members']): Group => ({ id, name, members });

    it('offers on, off and cycle for each group', () => {
      const states = [live('a', [outlet(1, true), outlet(2, false)]), live('b', [outlet(1, false)])];
      const groups = [
        group('g1', 'Bench 3', [
          { controllerId: 'a', outlet: 1 },
          { controllerId: 'b', outlet: 1 },
        ]),
      ];
      const menu = buildTrayMenu(tray({ controllers: [benchA, benchB], states, groups }));
      expect(ids(menu)).toEqual(['ctl:a', 'ctl:b', 'sep:groups', 'groups', 'sep:app', 'window', 'quit']);
      expect(find(menu, 'grp:g1')).toMatchObject({ label: 'Bench 3', sublabel: '2 outlets' });
      expect(find(menu, 'grp:g1:on')).toMatchObject({
        label: 'All on',
        enabled: true,
        action: { kind: 'group', id: 'g1', action: 'on' },
      });
      expect(find(menu, 'grp:g1:off')).toMatchObject({
        label: 'All off',
        enabled: true,
        action: { kind: 'group', id: 'g1', action: 'off' },
      });
      expect(find(menu, 'grp:g1:cycle')).toMatchObject({
        enabled: true,
        action: { kind: 'group', id: 'g1', action: 'cycle' },
      });
    });

    it('does not switch off or cycle a group holding a critical outlet', () => {
      const states = [live('a', [outlet(1, true, { critical: true }), outlet(2, true)])];
      const groups = [
        group('g1', 'Core', [
          { controllerId: 'a', outlet: 1 },
          { controllerId: 'a', outlet: 2 },
        ]),
      ];
      const menu = buildTrayMenu(tray({ controllers: [benchA], states, groups }));
      expect(find(menu, 'grp:g1:on')).toMatchObject({ enabled: true });
      for (const id of ['grp:g1:off', 'grp:g1:cycle']) {
        expect(find(menu, id)).toMatchObject({
          enabled: false,
          action: null,
          sublabel: 'Has critical outlets: use the window',
        });
      }
    });

    it('runs a sequence on or off, and never offers to cycle it', () => {
      const states = [live('a', [outlet(1, false), outlet(2, false)])];
      const members = [
        { controllerId: 'a', outlet: 1 },
        { controllerId: 'a', outlet: 2 },
      ];
      const sequence: Group = {
        ...group('s1', 'Rack power-on', members),
        kind: 'sequence',
        steps: members.map((m) => ({
          controllerId: m.controllerId,
          outlets: [m.outlet],
          wait: { kind: 'delay', seconds: 2 },
        })),
      };
      const menu = buildTrayMenu(tray({ controllers: [benchA], states, groups: [sequence] }));
      expect(find(menu, 'grp:s1:on')).toMatchObject({
        label: 'Run on',
        action: { kind: 'group', id: 's1', action: 'on' },
      });
      expect(find(menu, 'grp:s1:off')).toMatchObject({ label: 'Run off' });
      expect(() => find(menu, 'grp:s1:cycle')).toThrow('no item grp:s1:cycle');
    });

    it('disables a group whose controllers are all unreachable', () => {
      const groups = [group('g1', 'Far', [{ controllerId: 'a', outlet: 1 }])];
      const menu = buildTrayMenu(
        tray({ controllers: [benchA], states: [live('a', [], { status: 'offline' })], groups }),
      );
      for (const id of ['grp:g1:on', 'grp:g1:off', 'grp:g1:cycle']) {
        expect(find(menu, id)).toMatchObject({
          enabled: false,
          action: null,
          sublabel: 'None of its controllers is online',
        });
      }
    });
  });

  it('gives every item a unique id', () => {
    const states = [live('a', [outlet(1, true), outlet(2, false)]), live('b', [outlet(1, true)])];
    const menu = buildTrayMenu(
      tray({
        controllers: [benchA, benchB],
        states,
        favourites: [{ controllerId: 'a', outlet: 1 }],
        groups: [{ id: 'g', name: 'G', members: [{ controllerId: 'a', outlet: 1 }] }],
      }),
    );
    const all: string[] = [];
    const walk = (items: TrayMenuItem[]) =>
      items.forEach((i) => {
        all.push(i.id);
        if (i.type === 'submenu') walk(i.submenu);
      });
    walk(menu);
    expect(new Set(all).size).toBe(all.length);
  });

  it('is pure: the same state gives the same menu and the state is not changed', () => {
    const state = tray({
      controllers: [benchA],
      states: [live('a', [outlet(1, true, { critical: true })])],
      favourites: [{ controllerId: 'a', outlet: 1 }],
    });
    const frozen = structuredClone(state);
    expect(buildTrayMenu(state)).toEqual(buildTrayMenu(state));
    expect(state).toEqual(frozen);
  });
});

describe('trayIconState', () => {
  const with_ = (states: ControllerState[], controllers = [benchA, benchB]) =>
    trayIconState({ controllers, states });

  it('is on when every known outlet is on, off when every one is off, mixed otherwise', () => {
    expect(with_([live('a', [outlet(1, true), outlet(2, true)]), live('b', [outlet(1, true)])])).toBe('on');
    expect(with_([live('a', [outlet(1, false)]), live('b', [outlet(1, false)])])).toBe('off');
    expect(with_([live('a', [outlet(1, true)]), live('b', [outlet(1, false)])])).toBe('mixed');
    expect(with_([live('a', [outlet(1, true), outlet(2, false)])])).toBe('mixed');
  });

  it('is offline as soon as one saved controller is in trouble', () => {
    for (const status of ['offline', 'auth_failed', 'api_disabled', 'tls_changed', 'error'] as const) {
      expect(with_([live('a', [outlet(1, true)]), live('b', [], { status })])).toBe('offline');
    }
  });

  it('ignores rebooting and connecting controllers, and states of controllers no longer saved', () => {
    expect(
      with_([live('a', [outlet(1, true)]), live('b', [outlet(1, false)], { status: 'rebooting' })]),
    ).toBe('on');
    expect(with_([live('a', [outlet(1, true)]), live('b', [], { status: 'connecting' })])).toBe('on');
    expect(with_([live('a', [outlet(1, true)]), live('zombie', [], { status: 'offline' })])).toBe('on');
  });

  it('is off when nothing is known', () => {
    expect(with_([], [])).toBe('off');
    expect(with_([])).toBe('off');
  });
});

describe('reserved outlets in the tray', () => {
  const at = new Date(2026, 10, 24, 9, 0).getTime();
  const reservation = (holder: string, target: Reservation['target']): Reservation => ({
    id: 'r-1',
    target,
    // What the Core fixed when it was taken: group "g" had outlet 3 of Bench A then.
    covers:
      target.kind === 'group'
        ? [{ controllerId: 'a', outlet: 3 }]
        : [{ controllerId: target.controllerId, outlet: target.kind === 'outlet' ? target.outlet : null }],
    holder,
    door: 'window',
    reason: 'flashing firmware',
    createdAt: at,
    expiresAt: new Date(2026, 10, 24, 14, 30).getTime(),
  });
  const state = (reservations: Reservation[]) =>
    tray({
      controllers: [benchA],
      states: [live('a', [outlet(1, false), outlet(2, true), outlet(3, false)])],
      groups: [{ id: 'g', name: 'Rack', members: [{ controllerId: 'a', outlet: 3 }] }],
      reservations,
      user: 'alice',
      now: at,
    });

  it('say who holds someone else’s reservation, until when and why, and refuse the click', () => {
    const menu = buildTrayMenu(state([reservation('bob', { kind: 'outlet', controllerId: 'a', outlet: 2 })]));
    expect(find(menu, 'ctl:a:2')).toMatchObject({
      enabled: false,
      action: null,
      checked: true,
      sublabel: 'Reserved by bob until 14:30: flashing firmware',
    });
    expect(find(menu, 'ctl:a:1')).toMatchObject({ enabled: true });
  });

  it('cover a group’s members and a whole controller; the holder’s own stay clickable', () => {
    const byGroup = buildTrayMenu(state([reservation('bob', { kind: 'group', groupId: 'g' })]));
    expect(find(byGroup, 'ctl:a:3')).toMatchObject({ enabled: false });
    expect(find(byGroup, 'grp:g:on')).toMatchObject({
      enabled: false,
      action: null,
      sublabel: 'Reserved by bob until 14:30: flashing firmware',
    });
    expect(find(byGroup, 'ctl:a:1')).toMatchObject({ enabled: true });
    const mine = buildTrayMenu(state([reservation('alice', { kind: 'controller', controllerId: 'a' })]));
    expect(find(mine, 'ctl:a:1')).toMatchObject({
      enabled: true,
      sublabel: 'Reserved by you until 14:30: flashing firmware',
      action: { kind: 'set', controllerId: 'a', outlet: 1, on: true },
    });
  });
});

describe('a desk’s lab favourites', () => {
  const lab = (extra: Partial<NonNullable<TrayState['labs']>[number]> = {}) => ({
    id: 'lab-0a1b2c3d',
    name: 'Rack lab',
    online: true,
    controllers: [summary('c1', 'Bench A')],
    states: [live('c1', [outlet(1, true, { name: 'Scope' }), outlet(2, true, { critical: true })])],
    reservations: [],
    user: 'ada',
    ...extra,
  });
  const fav = (outletNumber: number) => ({ lab: 'lab-0a1b2c3d', controllerId: 'c1', outlet: outletNumber });

  it('online: named with the lab, switched through the lab', () => {
    const item = find(buildTrayMenu(tray({ favourites: [fav(1)], labs: [lab()] })), 'fav:lab-0a1b2c3d:c1:1');
    expect(item).toMatchObject({
      label: 'Rack lab › Bench A › 1 · Scope',
      enabled: true,
      checked: true,
      action: { kind: 'set', lab: 'lab-0a1b2c3d', controllerId: 'c1', outlet: 1, on: false },
    });
  });

  it('offline: the last-known state, disabled, saying so', () => {
    const item = find(
      buildTrayMenu(tray({ favourites: [fav(1)], labs: [lab({ online: false })] })),
      'fav:lab-0a1b2c3d:c1:1',
    );
    expect(item).toMatchObject({
      enabled: false,
      checked: true,
      sublabel: 'Rack lab cannot be reached: last known',
      action: null,
    });
  });

  it('a critical outlet is confirmed in the window, the request naming its lab', () => {
    const item = find(buildTrayMenu(tray({ favourites: [fav(2)], labs: [lab()] })), 'fav:lab-0a1b2c3d:c1:2');
    expect(item).toMatchObject({
      action: { kind: 'confirm', request: { lab: 'lab-0a1b2c3d', controllerId: 'c1' } },
    });
  });

  it('another person’s reservation in the lab disables it, naming them; the account’s own does not', () => {
    const held = (holder: string): Reservation =>
      ({
        id: 'r1',
        holder,
        reason: 'flashing',
        covers: [{ controllerId: 'c1', outlet: 1 }],
        expiresAt: 2_000_000_000_000,
      }) as unknown as Reservation;
    const theirs = find(
      buildTrayMenu(
        tray({ favourites: [fav(1)], labs: [lab({ reservations: [held('bob')] })], user: 'ada' }),
      ),
      'fav:lab-0a1b2c3d:c1:1',
    );
    expect(theirs).toMatchObject({ enabled: false });
    expect((theirs as { sublabel: string }).sublabel).toContain('Reserved by bob');
    // On the desk the OS user is someone else: the lab knows the person as the account.
    const mine = find(
      buildTrayMenu(
        tray({ favourites: [fav(1)], labs: [lab({ reservations: [held('ada')] })], user: 'osuser' }),
      ),
      'fav:lab-0a1b2c3d:c1:1',
    );
    expect(mine).toMatchObject({ enabled: true });
  });

  it('a favourite of a lab the desk no longer has is left out', () => {
    const menu = buildTrayMenu(tray({ favourites: [fav(1)], labs: [] }));
    expect(() => find(menu, 'fav:lab-0a1b2c3d:c1:1')).toThrow();
  });
});
