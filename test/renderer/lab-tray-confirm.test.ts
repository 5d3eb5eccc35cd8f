/**
 * The desk's tray asks the window to confirm switching off a lab's critical outlet (`ui/confirm` with the
 * lab's id): the window asks naming the lab, its outlet in the lab's words, and the confirmed switch is
 * the lab's (a `labs/call` with the lab's id and the confirmation), never a switch of this computer's
 * Core. A refusal from the lab is shown on the lab's pages.
 */
import { render, screen, waitFor, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, expect, test } from 'vitest';
import type { CallInput } from '../../src-preload/contract';
import type { LabSummary } from '../../src-preload/model';
import App from '../../src-renderer/App.svelte';
import { controllerState, outlet, snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

const LAB = 'lab-1a2b3c4d';

let desk: TestBackend;
/** The lab's Core: what `labs/call` reaches on the desk's side. */
let lab: TestBackend;

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
      scope: { kind: 'all' },
      door: 'window',
    },
    provider: null,
    lastSeen: 1_700_000_000_000,
    problem: null,
    ...overrides,
  };
}

beforeEach(() => {
  desk = new TestBackend();
  lab = new TestBackend();
  // This computer has a controller of the same id, with an outlet 2 of another name: the wrong one to act on.
  desk
    .answer('app/snapshot', () => ({
      ok: true,
      value: snapshot({
        info: { name: 'Plugboard', version: '0.1.0', shell: 'electron', platform: 'linux' },
        controllers: [summary({ id: 'rack-7', name: 'My Bench' })],
        states: [controllerState({ id: 'rack-7' })],
      }),
    }))
    .answer('labs/list', () => ({ ok: true, value: [labSummary()] }))
    .answer('outlets/set', () => ({ ok: true, value: { requested: [2], failed: [] } }))
    .answer('labs/call', (input) => {
      const { lab: id, name, input: callInput } = input as CallInput<'labs/call'>;
      if (id !== LAB) return { ok: false, error: { code: 'NOT_FOUND', message: `No lab ${id}.` } };
      const [domain, action] = name.split('/') as [string, string];
      const api = lab.api as unknown as Record<string, Record<string, (i: unknown) => unknown>>;
      return api[domain]![action]!(callInput) as never;
    });
  const live = controllerState({ id: 'rack-7' });
  live.outlets[1] = outlet(2, {
    name: 'Core switch',
    critical: true,
    physicalState: true,
    state: true,
    transientState: true,
  });
  lab.answer('app/snapshot', () => ({
    ok: true,
    value: snapshot({
      info: { name: 'Plugboard', version: '0.1.0', shell: 'serve', platform: 'linux' },
      controllers: [summary({ id: 'rack-7', name: 'Rack 7' })],
      states: [live],
    }),
  }));
  (window as { plugboard?: unknown }).plugboard = desk.api;
});

afterEach(() => {
  delete (window as { plugboard?: unknown }).plugboard;
  delete document.documentElement.dataset.theme;
});

const labSwitches = () =>
  desk.callsOf('labs/call').filter((c) => (c as CallInput<'labs/call'>).name === 'outlets/set');

/** Open the window, wait for the lab's state, and have the tray ask about the lab's outlet 2. */
async function asked(): Promise<HTMLElement> {
  render(App);
  await waitFor(() =>
    expect(desk.callsOf('labs/call')).toContainEqual(expect.objectContaining({ name: 'app/snapshot' })),
  );
  await screen.findByRole('region', { name: /Lab North/ });
  desk.emit('ui/confirm', {
    lab: LAB,
    controllerId: 'rack-7',
    outlets: [2],
    action: 'off',
    reason: 'Outlet 2 (Core switch) on Rack 7 is marked critical.',
  });
  return screen.findByRole('dialog', {
    name: 'The tray asks to switch off critical outlets on Rack 7 in Lab North',
  });
}

test('the window asks about a lab’s critical outlet naming the lab; confirmed, the lab switches it', async () => {
  const user = userEvent.setup();
  const dialog = await asked();
  expect(dialog).toHaveAccessibleDescription('Outlet 2 (Core switch) on Rack 7 is marked critical.');
  expect(within(dialog).getByRole('listitem')).toHaveTextContent('outlet 2 (Core switch)');
  lab.answer('outlets/set', () => ({ ok: true, value: { requested: [2], failed: [] } }));
  await user.click(within(dialog).getByRole('checkbox'));
  await user.click(within(dialog).getByRole('button', { name: 'Switch off' }));
  await waitFor(() => expect(labSwitches()).toHaveLength(1));
  expect(labSwitches()[0]).toEqual({
    lab: LAB,
    name: 'outlets/set',
    input: { controllerId: 'rack-7', outlets: [2], on: false, transient: false, confirmCritical: true },
  });
  // This computer's Core switched nothing: the outlet is the lab's.
  expect(desk.callsOf('outlets/set')).toEqual([]);
});

test('cancelled, nothing is switched anywhere', async () => {
  const user = userEvent.setup();
  const dialog = await asked();
  await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  expect(labSwitches()).toEqual([]);
  expect(desk.callsOf('outlets/set')).toEqual([]);
});

test('the lab’s refusal shows on the lab’s pages, in its words', async () => {
  const user = userEvent.setup();
  lab.answer('outlets/set', () => ({
    ok: false,
    error: {
      code: 'FORBIDDEN',
      message:
        'ada (operator of tag rack-7) may not switch outlets: outlet 2 on Rack 7 is outside its scope.',
    },
  }));
  const dialog = await asked();
  await user.click(within(dialog).getByRole('checkbox'));
  await user.click(within(dialog).getByRole('button', { name: 'Switch off' }));
  await waitFor(() => expect(labSwitches()).toHaveLength(1));
  history.replaceState(null, '', `#/${LAB}/overview`);
  window.dispatchEvent(new HashChangeEvent('hashchange'));
  expect(await screen.findByText(/outlet 2 on Rack 7 is outside its scope/)).toBeInTheDocument();
});
