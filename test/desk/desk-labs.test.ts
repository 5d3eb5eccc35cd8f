/**
 * A desk attached to a real lab service (in process, over HTTPS with a pinned certificate, accounts in
 * its SQLite lab store): adding checks the certificate before anything is sent, signing in keeps the
 * session in the keychain only, calls act as the account through the window's or the tray's door with
 * the lab Core's own refusals, the lab's events arrive pushed, and two desks signed in as two people
 * see one lab whose reservations hold between them.
 */
import { afterEach, expect, it } from 'vitest';
import type { ActivityEntry, ControllerState, LabSummary, Reservation } from '../../src-preload/model';
import { cleanUp } from '../core/harness';
import { PASSWORD, startDesk, startLab, type Cleanup, type DeskHarness, type Lab } from './lab-fixture';

const cleanups: Cleanup[] = [];
afterEach(async () => {
  for (const clean of cleanups.splice(0).reverse()) await clean();
  await cleanUp();
});

const WRONG_PIN = Array(32).fill('AB').join(':');

async function attached(desk: DeskHarness, lab: Lab, name: string): Promise<LabSummary> {
  const added = await desk.ok<LabSummary>('labs/add', {
    addresses: [lab.origin],
    fingerprints: [lab.fingerprint],
  });
  await desk.ok('labs/signIn', { lab: added.id, name, password: PASSWORD });
  return desk.lab(added.id, (s) => s.status === 'online');
}

it('adds a lab only with its pinned certificate: a wrong pin is refused before anything is sent', async () => {
  const lab = await startLab(cleanups, [{ name: 'ada', role: 'operator' }]);
  const desk = startDesk(cleanups);
  const before = lab.metrics.answered;

  const refused = await desk.call('labs/add', { addresses: [lab.origin], fingerprints: [WRONG_PIN] });
  expect(refused.ok).toBe(false);
  expect(!refused.ok && refused.error.code).toBe('TLS_CHANGED');
  expect(!refused.ok && refused.error.message).toContain('nothing was sent');
  expect(lab.metrics.answered).toBe(before);
  expect(desk.store.get('labs', [])).toEqual([]);

  const added = await desk.ok<LabSummary>('labs/add', {
    addresses: [lab.origin],
    fingerprints: [lab.fingerprint.toLowerCase()],
  });
  expect(lab.metrics.answered).toBeGreaterThan(before);
  expect(added).toMatchObject({ status: 'signed-out', account: null, addresses: [lab.origin] });
  expect(added.id).toMatch(/^lab-[0-9a-f]{8}$/);
  expect(added.fingerprints).toEqual([lab.fingerprint]);
  expect(desk.store.get('labs', [])).toEqual([
    { id: added.id, name: added.name, addresses: [lab.origin], fingerprints: [lab.fingerprint], order: 0 },
  ]);
  expect(await desk.ok('labs/list', {})).toEqual([added]);
  const again = await desk.call('labs/add', { addresses: [lab.origin], fingerprints: [lab.fingerprint] });
  expect(!again.ok && again.error.message).toContain('is already attached');
});

it('signs in: the session is in the keychain only, calls act as the account, and an observer is refused in the Core’s words', async () => {
  const lab = await startLab(cleanups, [
    { name: 'ada', role: 'operator' },
    { name: 'olga', role: 'observer' },
  ]);
  const desk = startDesk(cleanups);
  const summary = await attached(desk, lab, 'ada');
  expect(summary.account).toMatchObject({ who: 'ada', role: 'operator' });
  expect(summary.service).toBe(lab.origin);

  const kept = await desk.secrets.accounts();
  expect(kept).toEqual([`service-session:${lab.origin} ${lab.fingerprint}`]);
  const token = (await desk.secrets.get(kept[0]!))!;
  expect(token.length).toBeGreaterThan(20);
  expect(JSON.stringify(desk.store.get('labs', null))).not.toContain(token);
  expect(JSON.stringify(desk.events)).not.toContain(token);

  await desk.ok('labs/call', {
    lab: summary.id,
    name: 'outlets/set',
    input: { controllerId: lab.controllerId, outlets: [1], on: true },
  });
  const entry = lab.h
    .activity()
    .findLast((e: ActivityEntry) => e.controllerId === lab.controllerId && e.outlet === 1)!;
  expect({ source: entry.source, who: entry.who }).toEqual({ source: 'window', who: 'ada' });
  // The tray's calls reach the lab as the tray's.
  await desk.ok(
    'labs/call',
    {
      lab: summary.id,
      name: 'outlets/set',
      input: { controllerId: lab.controllerId, outlets: [2], on: true },
    },
    'tray',
  );
  const tray = lab.h.activity().findLast((e) => e.outlet === 2)!;
  expect({ source: tray.source, who: tray.who }).toEqual({ source: 'tray', who: 'ada' });

  const watcher = startDesk(cleanups);
  const olga = await attached(watcher, lab, 'olga');
  const refused = await watcher.call('labs/call', {
    lab: olga.id,
    name: 'outlets/set',
    input: { controllerId: lab.controllerId, outlets: [3], on: true },
  });
  const direct = await lab.h.core
    .handlersAs({ door: 'window', who: 'olga', role: 'observer', scope: { kind: 'all' } })
    ['outlets/set']({ controllerId: lab.controllerId, outlets: [3], on: true })
    .then(
      () => null,
      (error: Error) => error.message,
    );
  expect(refused.ok).toBe(false);
  expect(!refused.ok && refused.error.code).toBe('FORBIDDEN');
  expect(!refused.ok && refused.error.message).toBe(direct);
});

it('two desks, two people, one lab: events arrive pushed, and one’s reservation refuses the other naming the holder', async () => {
  const lab = await startLab(cleanups, [
    { name: 'ada', role: 'operator' },
    { name: 'bob', role: 'operator' },
  ]);
  const deskA = startDesk(cleanups);
  const deskB = startDesk(cleanups);
  const a = await attached(deskA, lab, 'ada');
  const b = await attached(deskB, lab, 'bob');

  const seenByB = deskB.next('labs/event', (event) => {
    const state = event.payload as ControllerState;
    return (
      event.lab === b.id &&
      event.name === 'state/changed' &&
      state.outlets?.find((o) => o.number === 4)?.physicalState === true
    );
  });
  await deskA.ok('labs/call', {
    lab: a.id,
    name: 'outlets/set',
    input: { controllerId: lab.controllerId, outlets: [4], on: true },
  });
  await seenByB;
  expect(lab.emu.device.outlet(3).physicalState).toBe(true);

  const reserved = deskB.next(
    'labs/event',
    (event) => event.name === 'reservations/changed' && (event.payload as Reservation[]).length === 1,
  );
  await deskA.ok('labs/call', {
    lab: a.id,
    name: 'reservations/take',
    input: {
      target: { kind: 'outlet', controllerId: lab.controllerId, outlet: 4 },
      reason: 'flashing firmware',
      durationMs: 3_600_000,
    },
  });
  expect(((await reserved).payload as Reservation[])[0]!.holder).toBe('ada');
  const refused = await deskB.call('labs/call', {
    lab: b.id,
    name: 'outlets/set',
    input: { controllerId: lab.controllerId, outlets: [4], on: false },
  });
  expect(!refused.ok && refused.error.code).toBe('RESERVED');
  expect(!refused.ok && refused.error.message).toContain('ada');
  expect(lab.emu.device.outlet(3).physicalState).toBe(true);
  // The desk's last-known reservations followed the event.
  expect(deskB.desk.lab(b.id)!.known!.reservations.map((r) => r.holder)).toEqual(['ada']);
});

it('signing out ends the session on the service and deletes it from the keychain', async () => {
  const lab = await startLab(cleanups, [{ name: 'ada', role: 'operator' }]);
  const desk = startDesk(cleanups);
  const summary = await attached(desk, lab, 'ada');
  expect((await lab.h.core.accounts!.list())[0]!.sessions).toBe(1);
  const out = await desk.ok<LabSummary>('labs/signOut', { lab: summary.id });
  expect(out).toMatchObject({ status: 'signed-out', account: null, problem: null });
  expect(await desk.secrets.accounts()).toEqual([]);
  expect((await lab.h.core.accounts!.list())[0]!.sessions).toBe(0);
  const call = await desk.call('labs/call', { lab: summary.id, name: 'app/snapshot' });
  expect(!call.ok && call.error.code).toBe('AUTH_FAILED');
});

it('a session revoked on the service ends the desk’s link: signed out, saying why, and gone from the keychain', async () => {
  const lab = await startLab(cleanups, [
    { name: 'ada', role: 'operator' },
    { name: 'root', role: 'admin' },
  ]);
  const desk = startDesk(cleanups);
  const summary = await attached(desk, lab, 'ada');
  await lab.h.core
    .handlersAs({ door: 'cli', who: 'root', role: 'admin' })
    ['accounts/revoke']({ name: 'ada' });
  const out = await desk.lab(summary.id, (s) => s.status === 'signed-out' && s.problem !== null);
  expect(out.problem?.message).toContain('no longer accepts this computer');
  expect(await desk.secrets.accounts()).toEqual([]);
});

it('signing in through a provider: refused with a sentence without the port, or when the lab offers none', async () => {
  const lab = await startLab(cleanups, [{ name: 'ada', role: 'operator' }]);
  const bare = startDesk(cleanups);
  const added = await bare.ok<LabSummary>('labs/add', {
    addresses: [lab.origin],
    fingerprints: [lab.fingerprint],
  });
  const none = await bare.call('labs/signInWithProvider', { lab: added.id });
  expect(!none.ok && none.error.message).toBe(
    'This Plugboard cannot sign in through an identity provider: it has no way to open the system browser.',
  );
  let asked = 0;
  const withPort = startDesk(cleanups, {
    signInWithProvider: async () => {
      asked++;
      throw new Error('not reached');
    },
  });
  const other = await withPort.ok<LabSummary>('labs/add', {
    addresses: [lab.origin],
    fingerprints: [lab.fingerprint],
  });
  const offered = await withPort.call('labs/signInWithProvider', { lab: other.id });
  expect(!offered.ok && offered.error.message).toBe(
    `The lab ${other.name} offers no sign-in through an identity provider.`,
  );
  expect(asked).toBe(0);
});

it('removing a lab signs out, forgets it, and drops its tray favourites on this desk only', async () => {
  const lab = await startLab(cleanups, [{ name: 'ada', role: 'operator' }]);
  const desk = startDesk(cleanups);
  const summary = await attached(desk, lab, 'ada');
  await desk.ok('settings/set', {
    trayFavourites: [
      { lab: summary.id, controllerId: lab.controllerId, outlet: 1 },
      { controllerId: 'local-one', outlet: 2 },
    ],
  });
  await desk.ok('labs/remove', { lab: summary.id });
  expect(await desk.ok('labs/list', {})).toEqual([]);
  expect(desk.store.get('labs', null)).toEqual([]);
  expect(await desk.secrets.accounts()).toEqual([]);
  expect((await lab.h.core.accounts!.list())[0]!.sessions).toBe(0);
  const settings = await desk.ok<{ trayFavourites: unknown[] }>('settings/get', {});
  expect(settings.trayFavourites).toEqual([{ controllerId: 'local-one', outlet: 2 }]);
});
