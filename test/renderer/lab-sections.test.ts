/**
 * The window of a desk that attaches to labs: this computer's section, then each lab's by name; a lab's
 * pages at `#/<lab id>/…`, every call of a lab made through this computer's `labs/call` with the lab's id
 * and its events heard as `labs/event`; a lab that cannot be reached shows what was last known and
 * nothing that switches; a signed-out lab shows its sign-in form; a lab outlet's tray favourite is kept in
 * this computer's settings, with the lab's id.
 */
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { CallInput, CallName } from '../../src-preload/contract';
import type { LabSummary, Settings } from '../../src-preload/model';
import App from '../../src-renderer/App.svelte';
import { DEFAULT_SETTINGS } from '../../src-renderer/lib/state/app-state.svelte';
import { controllerState, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

const LAB = 'lab-1a2b3c4d';

let desk: TestBackend;
/** The lab's Core: what `labs/call` reaches on the desk's side. */
let lab: TestBackend;
let labs: LabSummary[];
let localSettings: Settings;

function labSummary(overrides: Partial<LabSummary> = {}): LabSummary {
  return {
    id: LAB,
    name: 'Lab North',
    addresses: ['https://north.lab:16422'],
    fingerprints: [],
    status: 'online',
    service: 'https://north.lab:16422',
    account: {
      who: 'ada',
      displayName: 'Ada Lovelace',
      role: 'operator',
      scope: { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] },
      door: 'window',
    },
    provider: null,
    lastSeen: 1_700_000_000_000,
    problem: null,
    ...overrides,
  };
}

beforeEach(() => {
  localSettings = DEFAULT_SETTINGS;
  labs = [labSummary()];
  desk = new TestBackend();
  lab = new TestBackend();
  desk
    .answer('app/snapshot', () => ({
      ok: true,
      value: snapshot({
        info: { name: 'Plugboard', version: '0.1.0', shell: 'electron', platform: 'linux' },
        controllers: [summary({ id: 'desk-1', name: 'My Bench' })],
        states: [controllerState({ id: 'desk-1' })],
        settings: localSettings,
      }),
    }))
    .answer('labs/list', () => ({ ok: true, value: labs }))
    .answer('settings/set', (input) => {
      localSettings = { ...localSettings, ...(input as Partial<Settings>) };
      return { ok: true, value: localSettings };
    })
    .answer('labs/call', (input) => {
      const { lab: id, name, input: callInput } = input as CallInput<'labs/call'>;
      if (id !== LAB) return { ok: false, error: { code: 'NOT_FOUND', message: `No lab ${id}.` } };
      const [domain, action] = name.split('/') as [string, string];
      const api = lab.api as unknown as Record<string, Record<string, (i: unknown) => unknown>>;
      return api[domain]![action]!(callInput) as never;
    });
  lab
    .answer('app/snapshot', () => ({
      ok: true,
      value: snapshot({
        info: { name: 'Plugboard', version: '0.1.0', shell: 'serve', platform: 'linux' },
        controllers: [summary({ id: 'rack-7', name: 'Rack 7' })],
        states: [controllerState({ id: 'rack-7' })],
      }),
    }))
    .answer('outlets/set', () => ({ ok: true, value: { requested: [1], failed: [] } }));
  (window as { plugboard?: unknown }).plugboard = desk.api;
});

afterEach(() => {
  delete (window as { plugboard?: unknown }).plugboard;
  delete document.documentElement.dataset.theme;
});

/** The lab's calls as the desk received them through `labs/call`. */
function labCalls(name: CallName): unknown[] {
  return desk
    .callsOf('labs/call')
    .filter((c) => (c as { name: string }).name === name)
    .map((c) => c as CallInput<'labs/call'>);
}

/** A backstop only (jsdom draws a whole controller page slowly on a loaded machine); tests wait for events. */
const BACKSTOP = { timeout: 20_000 };

test(
  'this computer, then each lab by name; a lab’s pages are at #/<lab>/…, its state loaded through labs/call',
  BACKSTOP,
  async () => {
    const user = userEvent.setup();
    render(App);
    const nav = screen.getByRole('navigation', { name: 'Controllers and pages' });
    const here = await within(nav).findByRole('region', { name: /This computer/ });
    expect(within(here).getByRole('tab', { name: 'My Bench online' })).toBeInTheDocument();
    const north = within(nav).getByRole('region', { name: /Lab North/ });
    // Not the section shown: folded, opened by its heading.
    await user.click(within(north).getByRole('button', { name: /Lab North/ }));
    await user.click(await within(north).findByRole('tab', { name: 'Rack 7 online' }));
    expect(location.hash).toBe(`#/${LAB}/rack-7/outlets`);
    expect(await screen.findByRole('tabpanel', { name: 'Rack 7 online' })).toBeInTheDocument();
    expect(screen.getByText(/^Signed in as/)).toHaveTextContent(
      'Signed in as Ada Lovelace (ada), operator of tag rack-7',
    );
    expect(screen.getByText('Answered by https://north.lab:16422')).toBeInTheDocument();
    expect(labCalls('app/snapshot')).toContainEqual({ lab: LAB, name: 'app/snapshot', input: {} });

    // Back to this computer through its section.
    await user.click(within(here).getByRole('button', { name: 'Overview' }));
    expect(location.hash).toBe('#/local/overview');
  },
);

test(
  'a lab’s switch is a labs/call with the lab’s id; its events come back as labs/event for that lab',
  BACKSTOP,
  async () => {
    const user = userEvent.setup();
    history.replaceState(null, '', `#/${LAB}/rack-7/outlets`);
    render(App);
    await user.click(await screen.findByRole('switch', { name: 'Power of outlet 2 (Server)' }));
    await waitFor(() => expect(labCalls('outlets/set')).toHaveLength(1));
    expect(labCalls('outlets/set')[0]).toMatchObject({
      lab: LAB,
      input: { controllerId: 'rack-7', outlets: [2], on: true },
    });
    // The switch was the lab's: this computer's Core switched nothing itself.
    expect(desk.callsOf('outlets/set')).toEqual([]);

    desk.emit('labs/event', {
      lab: LAB,
      name: 'state/changed',
      payload: controllerState({ id: 'rack-7', status: 'offline' }),
    });
    expect(await screen.findByRole('tab', { name: 'Rack 7 offline' })).toBeInTheDocument();
    desk.emit('labs/event', {
      lab: 'lab-00000000',
      name: 'state/changed',
      payload: controllerState({ id: 'rack-7' }),
    });
    expect(screen.getByRole('tab', { name: 'Rack 7 offline' })).toBeInTheDocument();
  },
);

test('an unreachable lab shows its last-known states as last known and offers nothing that switches', async () => {
  labs = [
    labSummary({
      status: 'offline',
      problem: { code: 'UNREACHABLE', message: 'Nothing answered at https://north.lab:16422.' },
    }),
  ];
  lab.answer('groups/run', () => ({ ok: true, value: { results: [] } as never }));
  history.replaceState(null, '', `#/${LAB}/overview`);
  render(App);
  const main = screen.getByRole('main');
  const lastKnown = await within(main).findByRole('region', { name: 'Lab North, last known' });
  expect(within(lastKnown).getByRole('status')).toHaveTextContent(
    /^Lab North cannot be reached \(last seen .+\): what shows is what was last known, and nothing can be switched until it answers again\./,
  );
  expect(within(lastKnown).getByText('Nothing answered at https://north.lab:16422.')).toBeInTheDocument();
  const switches = await within(lastKnown).findAllByRole('switch');
  expect(switches).toHaveLength(8);
  for (const s of switches) expect(s).toBeDisabled();
  expect(
    within(main)
      .queryAllByRole('switch')
      .filter((s) => !(s as HTMLButtonElement).disabled),
  ).toEqual([]);
  expect(within(lastKnown).getAllByText('on, last known')).toHaveLength(4);
  expect(within(main).queryByRole('button', { name: /^(On|Off|Cycle|Reserve)/ })).toBeNull();
  // Its section offers no Add controller while it cannot be reached.
  const north = screen.getByRole('region', { name: 'Lab North offline' });
  expect(within(north).queryByRole('button', { name: 'Add controller' })).toBeNull();
  expect(within(north).getByText('offline')).toBeInTheDocument();
  // Its controller is not said to be online now.
  expect(within(north).getByRole('tab', { name: 'Rack 7 connecting' })).toBeInTheDocument();
});

test(
  'a signed-out lab shows its sign-in form; a refusal shows the lab’s sentence; signing in opens its pages',
  BACKSTOP,
  async () => {
    const user = userEvent.setup();
    labs = [labSummary({ status: 'signed-out', account: null })];
    let refuse = true;
    desk.answer('labs/signIn', () =>
      refuse
        ? {
            ok: false,
            error: { code: 'AUTH_FAILED', message: 'The name or password is not right for Lab North.' },
          }
        : { ok: true, value: labSummary() },
    );
    history.replaceState(null, '', `#/${LAB}/overview`);
    render(App);
    const form = await screen.findByRole('form', { name: 'Sign in to Lab North' });
    await user.type(within(form).getByRole('textbox', { name: 'Name' }), 'ada');
    const password = within(form).getByLabelText('Password');
    await user.type(password, 'wrong horse');
    await user.click(within(form).getByRole('button', { name: 'Sign in' }));
    expect(await within(form).findByRole('alert')).toHaveTextContent(
      'The name or password is not right for Lab North.',
    );
    expect(desk.callsOf('labs/signIn')).toEqual([{ lab: LAB, name: 'ada', password: 'wrong horse' }]);
    expect(password).toHaveValue('');
    // Nothing of the lab was asked for while signed out.
    expect(desk.callsOf('labs/call')).toEqual([]);

    refuse = false;
    await user.type(password, 'correct horse');
    await user.click(within(form).getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByRole('tab', { name: 'Rack 7 online' })).toBeInTheDocument();
    expect(screen.queryByRole('form', { name: 'Sign in to Lab North' })).toBeNull();
  },
);

test('with an identity provider the form offers its sign-in, which waits for the browser', async () => {
  const user = userEvent.setup();
  labs = [labSummary({ status: 'signed-out', account: null, provider: { label: 'Keycloak' } })];
  let finish: (value: unknown) => void = () => undefined;
  desk.answer('labs/signInWithProvider', () => new Promise((resolve) => (finish = resolve)) as never);
  history.replaceState(null, '', `#/${LAB}/overview`);
  render(App);
  await user.click(await screen.findByRole('button', { name: 'Sign in with Keycloak' }));
  expect(screen.getByRole('status')).toHaveTextContent(
    'Waiting for you to sign in with Keycloak in your browser',
  );
  expect(desk.callsOf('labs/signInWithProvider')).toEqual([{ lab: LAB }]);
  finish({ ok: true, value: labSummary() });
  expect(await screen.findByRole('tab', { name: 'Rack 7 online' })).toBeInTheDocument();
});

test(
  'the star on a lab’s outlet pins it in this computer’s settings with the lab’s id, never the lab’s',
  BACKSTOP,
  async () => {
    const user = userEvent.setup();
    history.replaceState(null, '', `#/${LAB}/rack-7/outlets`);
    render(App);
    await user.click(await screen.findByRole('button', { name: 'Pin outlet 3 (Switch) to the tray' }));
    await waitFor(() => expect(desk.callsOf('settings/set')).toHaveLength(1));
    expect(desk.callsOf('settings/set')[0]).toEqual({
      trayFavourites: [{ controllerId: 'rack-7', outlet: 3, lab: LAB }],
    });
    expect(labCalls('settings/set')).toEqual([]);
    // Shown pinned on the lab's page.
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Pin outlet 3 (Switch) to the tray' })).toHaveAttribute(
        'aria-pressed',
        'true',
      ),
    );
  },
);

test(
  'connecting to a lab sends its addresses and fingerprints, then opens its section to sign in',
  BACKSTOP,
  async () => {
    const user = userEvent.setup();
    labs = [];
    const pin = Array.from({ length: 32 }, () => 'AB').join(':');
    desk.answer('labs/add', () => ({ ok: true, value: labSummary({ status: 'signed-out', account: null }) }));
    render(App);
    await user.click(await screen.findByRole('button', { name: 'Connect to a lab' }));
    const form = screen.getByRole('form', { name: 'Connect to a lab' });
    await user.type(
      within(form).getByRole('textbox', { name: 'Service address' }),
      'https://north.lab:16422',
    );
    await user.type(within(form).getByRole('textbox', { name: 'Certificate fingerprint' }), pin);
    await user.click(within(form).getByRole('button', { name: 'Connect' }));
    expect(desk.callsOf('labs/add')).toEqual([
      { addresses: ['https://north.lab:16422'], fingerprints: [pin] },
    ]);
    expect(await screen.findByRole('form', { name: 'Sign in to Lab North' })).toBeInTheDocument();
    expect(location.hash).toBe(`#/${LAB}/overview`);
  },
);

test('a lab’s own web window (no labs, served by the lab) offers no Connect to a lab', async () => {
  labs = [];
  desk.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({ info: { name: 'Plugboard', version: '0.1.0', shell: 'serve', platform: 'linux' } }),
  }));
  render(App);
  await screen.findByText('v0.1.0');
  await waitFor(() => expect(desk.callsOf('labs/list')).toHaveLength(1));
  expect(screen.queryByRole('button', { name: 'Connect to a lab' })).toBeNull();
  expect(screen.queryByRole('region', { name: /This computer/ })).toBeNull();
});

test('a lab’s People page is the lab’s: offered when the lab answers its account list, listed through labs/call', async () => {
  const user = userEvent.setup();
  desk.answer('accounts/list', () => ({
    ok: false,
    error: { code: 'INTERNAL', message: 'This computer keeps no accounts.' },
  }));
  lab.answer('accounts/list', () => ({
    ok: true,
    value: [
      {
        name: 'root',
        displayName: 'Lab admin',
        role: 'admin',
        scope: { kind: 'all' },
        createdAt: 1_700_000_000_000,
        disabled: false,
        hasPassword: true,
        sessions: 1,
      },
    ],
  }));
  history.replaceState(null, '', `#/${LAB}/overview`);
  render(App);
  const north = await screen.findByRole('region', { name: 'Lab North online' });
  await user.click(await within(north).findByRole('button', { name: 'People' }));
  expect(location.hash).toBe(`#/${LAB}/people`);
  const table = await screen.findByRole('table', { name: 'Accounts, their roles and where each applies' });
  expect(within(table).getByRole('rowheader', { name: /^root/ })).toBeInTheDocument();
  expect(labCalls('accounts/list').length).toBeGreaterThan(0);
  const here = screen.getByRole('region', { name: 'This computer' });
  expect(within(here).queryByRole('button', { name: 'People' })).toBeNull();
});

test(
  'Ctrl+digit works in the lab’s section shown; Go to… finds a lab’s outlet from this computer’s',
  BACKSTOP,
  async () => {
    const user = userEvent.setup();
    history.replaceState(null, '', `#/${LAB}/overview`);
    render(App);
    const north = await screen.findByRole('region', { name: 'Lab North online' });
    await within(north).findByRole('tab', { name: 'Rack 7 online' });
    await user.keyboard('{Control>}1{/Control}');
    expect(location.hash).toBe(`#/${LAB}/rack-7/outlets`);
    await user.click(screen.getByRole('region', { name: 'This computer' }).querySelector('button')!);
    await user.click(
      within(screen.getByRole('region', { name: 'This computer' })).getByRole('button', { name: 'Overview' }),
    );
    expect(location.hash).toBe('#/local/overview');
    await user.keyboard('{Control>}k{/Control}');
    const box = screen.getByRole('combobox', { name: 'Go to a controller, outlet or group' });
    await user.type(box, 'server');
    const list = screen.getByRole('listbox', { name: 'Matches' });
    await user.click(within(list).getByRole('option', { name: /Server on Rack 7 \(Lab North\) · outlet 2/ }));
    expect(location.hash).toBe(`#/${LAB}/rack-7/outlets`);
  },
);

test('the Settings list a lab’s pinned outlet by the lab’s name; unpinning keeps this computer’s own', async () => {
  const user = userEvent.setup();
  localSettings = {
    ...DEFAULT_SETTINGS,
    trayFavourites: [
      { controllerId: 'desk-1', outlet: 1 },
      { controllerId: 'rack-7', outlet: 2, lab: LAB },
    ],
  };
  history.replaceState(null, '', '#/local/settings');
  render(App);
  const unpin = await screen.findByRole('button', { name: 'Unpin Lab North: Rack 7, outlet 2 (Server)' });
  expect(screen.getByRole('button', { name: 'Unpin My Bench, outlet 1 (Router)' })).toBeInTheDocument();
  await user.click(unpin);
  await waitFor(() => expect(desk.callsOf('settings/set')).toHaveLength(1));
  expect(desk.callsOf('settings/set')[0]).toEqual({
    trayFavourites: [{ controllerId: 'desk-1', outlet: 1 }],
  });
});

test('removing a lab asks first, then leaves its section for this computer’s Overview', async () => {
  const user = userEvent.setup();
  labs = [labSummary({ status: 'signed-out', account: null })];
  desk.answer('labs/remove', () => ({ ok: true, value: null }));
  history.replaceState(null, '', `#/${LAB}/overview`);
  render(App);
  await user.click(await screen.findByRole('button', { name: 'Remove…' }));
  const dialog = screen.getByRole('dialog', { name: 'Remove Lab North from this computer?' });
  expect(desk.callsOf('labs/remove')).toEqual([]);
  await user.click(within(dialog).getByRole('button', { name: 'Remove' }));
  await waitFor(() => expect(location.hash).toBe('#/local/overview'));
  expect(desk.callsOf('labs/remove')).toEqual([{ lab: LAB }]);
  expect(screen.queryByRole('region', { name: /Lab North/ })).toBeNull();
});

test(
  'a lab that answers again is live again by itself: reloaded, its switches enabled',
  BACKSTOP,
  async () => {
    labs = [labSummary({ status: 'offline' })];
    history.replaceState(null, '', `#/${LAB}/rack-7/outlets`);
    render(App);
    await screen.findByRole('region', { name: 'Lab North, last known' });
    await waitFor(() => expect(labCalls('app/snapshot')).toHaveLength(1));
    expect(screen.getByRole('switch', { name: 'Power of outlet 2 (Server)' })).toBeDisabled();

    desk.emit('labs/changed', [labSummary({ status: 'online' })]);
    await waitFor(() => expect(labCalls('app/snapshot')).toHaveLength(2));
    expect(await screen.findByRole('tabpanel', { name: 'Rack 7 online' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Lab North, last known' })).toBeNull();
    expect(screen.getByRole('switch', { name: 'Power of outlet 2 (Server)' })).toBeEnabled();
  },
);
