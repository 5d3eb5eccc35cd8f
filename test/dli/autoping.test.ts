/** The client's AutoPing calls against the emulator's simulated AutoPing. */
import { describe, expect, it } from 'vitest';
import { access, client, emulator, failure } from './helpers';

const ITEM = {
  addresses: ['10.0.0.5'],
  outlets: [2, 3],
  enabled: true,
  pingsBeforeEnabling: 2,
  resumptionTrial: false,
  script: '',
};

describe('AutoPing', () => {
  it('creates an item with 1-based outlets and lists it with its status as the unit runs it', async () => {
    const unit = await emulator({ autoping: true });
    const c = client(unit.url);
    expect(await c.autoping.list()).toEqual([]);
    const after = await c.autoping.create(ITEM);
    expect(after).toEqual([{ number: 1, ...ITEM, status: 'waiting' }]);
    // On the unit, outlets count from zero.
    expect(unit.device.autoping().items[0]).toMatchObject({ addresses: ['10.0.0.5'], outlets: [1, 2] });
    unit.device.autopingAnswers('10.0.0.5', true);
    unit.device.autopingTick();
    unit.device.autopingTick();
    expect((await c.autoping.list())[0]!.status).toBe('ok');
  });

  it('edits, disables, enables and deletes items by their 1-based number', async () => {
    const unit = await emulator({ autoping: true });
    const c = client(unit.url);
    await c.autoping.create(ITEM);
    await c.autoping.create({ ...ITEM, addresses: ['host-b'], outlets: [8] });
    const edited = await c.autoping.edit(2, { ...ITEM, addresses: ['host-c', 'host-d'], outlets: [1] });
    expect(edited[1]).toMatchObject({ number: 2, addresses: ['host-c', 'host-d'], outlets: [1] });
    expect(edited[0]).toMatchObject({ addresses: ['10.0.0.5'], outlets: [2, 3] });
    const disabled = await c.autoping.setEnabled(1, false);
    expect(disabled[0]).toMatchObject({ enabled: false, status: 'disabled' });
    expect(unit.device.autoping().items[0]!.enabled).toBe(false);
    expect((await c.autoping.setEnabled(1, true))[0]).toMatchObject({ enabled: true, status: 'waiting' });
    const left = await c.autoping.remove(1);
    expect(left).toEqual([expect.objectContaining({ number: 1, addresses: ['host-c', 'host-d'] })]);
    expect(unit.device.autoping().items).toHaveLength(1);
  });

  it('refuses bad input before sending anything, naming what is wrong', async () => {
    const unit = await emulator({ autoping: true });
    const c = client(unit.url);
    const nine = await failure(c.autoping.create({ ...ITEM, outlets: [9] }));
    expect(nine).toMatchObject({ code: 'BAD_INPUT', message: expect.stringContaining('Outlet 9') });
    const none = await failure(c.autoping.create({ ...ITEM, addresses: [] }));
    expect(none.message).toContain('1 to 8 addresses');
    const odd = await failure(c.autoping.create({ ...ITEM, addresses: ['bad host;'] }));
    expect(odd.message).toContain('"bad host;"');
    expect(unit.device.autoping().items).toEqual([]);
    const missing = await failure(c.autoping.remove(3));
    expect(missing).toMatchObject({ code: 'NOT_FOUND', message: expect.stringContaining('item 3') });
    expect(missing.action).toBeTruthy();
  });

  it('says clearly when a unit has no AutoPing, or the login is not an administrator', async () => {
    const plain = await emulator();
    const error = await failure(client(plain.url, { name: 'Bench A' }).autoping.list());
    expect(error).toMatchObject({
      code: 'UNSUPPORTED_FIRMWARE',
      message: 'Bench A has no AutoPing (its API has no autoping/).',
    });
    expect(error.action).toContain('AutoPing');
    expect(plain.device.stats.log.filter((entry) => entry.method !== 'GET')).toEqual([]);

    const unit = await emulator({ autoping: true });
    unit.device.addUser({ name: 'bob', password: 'pw', outletAccess: access([1]) });
    const bob = client(unit.url, { credentials: { kind: 'digest', user: 'bob', password: 'pw' } });
    const refused = await failure(bob.autoping.create(ITEM));
    expect(refused).toMatchObject({ code: 'FORBIDDEN', action: 'Log in as an administrator.' });
    expect(unit.device.autoping().items).toEqual([]);
  });
});

describe('AutoPing on the real-unit profile', () => {
  it('works over Connection: close with chunked bodies and a slow outlet list', async () => {
    const unit = await emulator({ realUnit: true, slowOutletListMs: 300 });
    const c = client(unit.url);
    const created = await c.autoping.create({ ...ITEM, outlets: [1] });
    expect(created).toEqual([{ number: 1, ...ITEM, outlets: [1], status: 'waiting' }]);
    expect((await c.autoping.setEnabled(1, false))[0]).toMatchObject({ enabled: false, status: 'disabled' });
    expect(await c.autoping.remove(1)).toEqual([]);
    expect(unit.device.autoping().items).toEqual([]);
  });
});
