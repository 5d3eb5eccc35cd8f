/**
 * A controller's status through the Core: connecting, adding, wrong passwords, API switched off, offline,
 * reboots and certificates.
 *
 * @real-unit: rerun against the emulator's real-unit profile for how the unit answers a connect, a poll and a
 * reboot.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ControllerState, ControllerSummary, Result } from '../../../src-preload/contract';
import { FakeClock } from '../fake-clock';
import { addController, cleanUp, emulator, keychainSecret, newCore, until } from '../harness';
import { nextPoll, outletReads, planned, polls } from '../poll-steps';

afterEach(cleanUp);

describe('connecting to a saved controller', () => {
  it('shows the live outlets after four requests, before the identity strings are read', async () => {
    const emu = await emulator();
    const first = newCore();
    const { id } = await addController(first, emu);
    await first.core.dispose();
    emu.device.stats.reset();

    const second = newCore({ store: first.store, secrets: first.secrets });
    let firstOnline: { requests: number; outlets: number; identity: unknown } | null = null;
    second.core.subscribe((name, payload) => {
      if (name !== 'state/changed' || firstOnline) return;
      const state = payload as ControllerState;
      if (state.id === id && state.status === 'online') {
        firstOnline = {
          requests: emu.device.stats.requests,
          outlets: state.outlets.length,
          identity: state.identity,
        };
      }
    });
    const complete = await until(second, id, (s) => s.identity !== null);
    // The challenge, the firmware version, who is logged in, the outlets and the meters.
    expect(firstOnline).toEqual({ requests: 5, outlets: 8, identity: null });
    expect(complete.identity).toMatchObject({ serial: emu.device.serial, firmware: emu.device.firmware });
    expect(complete.capabilities).toMatchObject({
      isAdmin: true,
      outletCount: 8,
      simultaneousSwitching: true,
    });
  });
});

describe('adding a controller', () => {
  it('fails with AUTH_FAILED for a wrong password and saves nothing', async () => {
    const emu = await emulator();
    const h = newCore();
    const result = await h.call('controllers/add', {
      url: emu.url,
      auth: { kind: 'digest', user: 'admin', password: 'wrong' },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'AUTH_FAILED', message: expect.stringMatching(/Wrong user name or password/) },
    });
    expect(await h.ok('controllers/list', {})).toEqual([]);
    expect(h.secrets.size).toBe(0);
  });

  it('fails with API_DISABLED when the REST-style API is off', async () => {
    const emu = await emulator();
    emu.device.setConfig({ restApiEnabled: false });
    const h = newCore();
    const result = await h.call('controllers/add', {
      url: emu.url,
      auth: { kind: 'digest', user: 'admin', password: '1234' },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'API_DISABLED', action: expect.stringMatching(/Allow REST-style API/) },
    });
  });

  it('fails with UNREACHABLE for an address where nothing answers', async () => {
    const emu = await emulator();
    const url = emu.url;
    await emu.close();
    const h = newCore();
    const result = await h.call('controllers/add', {
      url,
      auth: { kind: 'digest', user: 'admin', password: '1234' },
    });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'UNREACHABLE', message: expect.stringMatching(/Cannot reach/) },
    });
  });

  it('asks to accept the certificate of an HTTPS controller, then pins it', async () => {
    const emu = await emulator({ tls: true });
    const h = newCore();
    const input = { url: emu.url, name: 'Secure', auth: { kind: 'digest', user: 'admin', password: '1234' } };
    const first = await h.call('controllers/add', input);
    expect(first).toMatchObject({ ok: false, error: { code: 'TLS_UNTRUSTED' } });
    const fingerprint = (first as Extract<Result<unknown>, { ok: false }>).error.detail![
      'fingerprint'
    ] as string;
    expect(fingerprint.replace(/:/g, '').toUpperCase()).toBe(
      emu.device.certificate!.fingerprint256.replace(/:/g, '').toUpperCase(),
    );
    const summary = await h.ok<ControllerSummary>('controllers/add', { ...input, fingerprint });
    expect(summary.fingerprint).toBe(fingerprint.toUpperCase());
    await until(h, summary.id, (s) => s.status === 'online');

    // A new certificate: the controller is flagged, not trusted, until the person accepts it.
    const changed = await emu.device.changeCertificate();
    await h.ok('settings/set', { pollIntervalMs: 500 });
    const flagged = await until(h, summary.id, (s) => s.status === 'tls_changed');
    expect(flagged.problem?.code).toBe('TLS_CHANGED');
    await h.ok('controllers/trustCertificate', { id: summary.id, fingerprint: changed, reuseSecret: true });
    await until(h, summary.id, (s) => s.status === 'online');
  });

  it('refuses a second entry for the same address and names the controller when no name is given', async () => {
    const emu = await emulator({ name: 'Rack 7 PDU' });
    const h = newCore();
    const auth = { kind: 'digest', user: 'admin', password: '1234' };
    const summary = await h.ok<ControllerSummary>('controllers/add', { url: emu.url, auth });
    expect(summary).toMatchObject({
      name: 'Rack 7 PDU',
      hasSecret: true,
      demo: false,
      user: 'admin',
      auth: 'digest',
    });
    const again = await h.call('controllers/add', { url: `${emu.url}/`, auth });
    expect(again).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringMatching(/already saved as "Rack 7 PDU"/) },
    });
  });
});

describe('status while running', () => {
  it('shows auth_failed after the password changes on the controller, stops trying, and recovers with a new password', async () => {
    const clock = new FakeClock();
    const [emu, other] = [await emulator(), await emulator()];
    const h = newCore({ clock });
    await h.ok('settings/set', { pollIntervalMs: 500 });
    const summary = await addController(h, emu);
    await addController(h, other);
    emu.device.setPassword('admin', 'changed');
    emu.device.expireNonces();
    await clock.advance(await planned(clock));
    const failed = await until(h, summary.id, (s) => s.status === 'auth_failed');
    expect(failed.problem?.code).toBe('AUTH_FAILED');
    // Paused: repeated wrong logins could lock the user out. Ten poll intervals pass on the fake clock:
    // the other controller is polled each time (the schedule ran), this one never, and has nothing planned.
    await nextPoll(clock);
    const requests = emu.device.stats.requests;
    const otherReads = outletReads(other);
    await polls(clock, 10);
    expect(outletReads(other) - otherReads).toBe(10);
    expect(emu.device.stats.requests).toBe(requests);
    expect(clock.pendingTimers).toBe(1);

    await h.ok('controllers/update', {
      id: summary.id,
      auth: { kind: 'digest', user: 'admin', password: 'changed' },
    });
    await clock.advance(0);
    await until(h, summary.id, (s) => s.status === 'online');
    expect(await keychainSecret(h.secrets, `controller:${summary.id}`)).toBe('changed');
  });

  it('refuses a password change the controller rejects and keeps the old one', async () => {
    const emu = await emulator();
    const h = newCore();
    const summary = await addController(h, emu);
    const result = await h.call('controllers/update', {
      id: summary.id,
      auth: { kind: 'digest', user: 'admin', password: 'nope' },
    });
    expect(result).toMatchObject({ ok: false, error: { code: 'AUTH_FAILED' } });
    expect(await keychainSecret(h.secrets, `controller:${summary.id}`)).toBe('1234');
  });

  it('shows api_disabled when the REST-style API is switched off, and online when it is back', async () => {
    const emu = await emulator();
    const h = newCore();
    await h.ok('settings/set', { pollIntervalMs: 500 });
    const summary = await addController(h, emu);
    emu.device.setConfig({ restApiEnabled: false });
    const off = await until(h, summary.id, (s) => s.status === 'api_disabled');
    expect(off.problem?.action).toMatch(/Allow REST-style API/);
    emu.device.setConfig({ restApiEnabled: true });
    await until(h, summary.id, (s) => s.status === 'online');
  });

  it('goes offline when the controller disappears, keeps trying, and recovers when it comes back', async () => {
    const emu = await emulator();
    const h = newCore();
    await h.ok('settings/set', { pollIntervalMs: 500 });
    const summary = await addController(h, emu);
    await h.ok('groups/save', { name: 'g', members: [{ controllerId: summary.id, outlet: 1 }] });
    await emu.device.goOffline();
    const offline = await until(h, summary.id, (s) => s.status === 'offline');
    expect(offline.problem).toMatchObject({ code: 'UNREACHABLE' });
    // The last known outlets stay, marked by the status; actions fail in words.
    expect(offline.outlets).toHaveLength(8);
    const action = await h.call('outlets/set', { controllerId: summary.id, outlets: [1], on: false });
    expect(action).toMatchObject({ ok: false, error: { code: 'UNREACHABLE' } });
    await vi.waitFor(() => expect(h.notices.map((n) => n.title)).toContain(`${summary.name} is offline`), {
      timeout: 10_000,
    });

    await emu.device.comeBack();
    const back = await until(h, summary.id, (s) => s.status === 'online', 20_000);
    expect(back.problem).toBeNull();
    expect(h.notices.map((n) => n.title)).toContain(`${summary.name} is back online`);
  });

  it('reboots: rebooting at once, probed until back, then refreshed (transient states reverted)', async () => {
    const emu = await emulator({ rebootSeconds: 1 });
    const h = newCore();
    await h.ok('settings/set', { pollIntervalMs: 500 });
    const summary = await addController(h, emu);
    await h.ok('outlets/set', { controllerId: summary.id, outlets: [8], on: true, transient: true });
    await until(h, summary.id, (s) => s.outlets[7]!.physicalState && !s.outlets[7]!.pending);
    // Whether the unit was still down each time the Core said it was back online.
    const unitDownWhenOnline: boolean[] = [];
    h.core.subscribe((name, payload) => {
      const state = payload as ControllerState;
      if (name === 'state/changed' && state.id === summary.id && state.status === 'online')
        unitDownWhenOnline.push(emu.device.rebooting);
    });
    const before = Date.now();
    await h.ok('system/reboot', { controllerId: summary.id });
    const after = Date.now();
    const rebooting = h.state(summary.id)!;
    expect(rebooting.status).toBe('rebooting');
    expect(rebooting.rebootingSince).toBeGreaterThanOrEqual(before);
    expect(rebooting.rebootingSince).toBeLessThanOrEqual(after);
    const back = await until(h, summary.id, (s) => s.status === 'online', 20_000);
    expect(back.rebootingSince).toBeNull();
    expect(back.outlets[7]).toMatchObject({ transientState: false, physicalState: false });
    expect(unitDownWhenOnline.length).toBeGreaterThan(0);
    expect(unitDownWhenOnline).not.toContain(true);
    const entries = h.activity().map((e) => [e.action, e.source, e.result]);
    expect(entries).toContainEqual(['reboot', 'window', 'ok']);
    expect(entries).toContainEqual(['back online after the reboot', 'system', 'ok']);
    // The reverted transient state is the reboot's doing, not someone else's.
    expect(h.activity().filter((e) => e.source === 'outside')).toEqual([]);
  });

  it('refuses to reboot firmware that cannot, and says which firmware is needed', async () => {
    const emu = await emulator({ firmware: '1.10.15.0' });
    const h = newCore();
    const summary = await addController(h, emu);
    const result = await h.call('system/reboot', { controllerId: summary.id });
    expect(result).toMatchObject({
      ok: false,
      error: { code: 'UNSUPPORTED_FIRMWARE', detail: { requiredFirmware: '1.11.6.0' } },
    });
    expect(h.state(summary.id)!.status).toBe('online');
  });
});
