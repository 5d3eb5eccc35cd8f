import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src-main/emulator/index';
import { curl, json, python, until } from './clients';

// AutoPing, simulated (no ICMP): the shape of power_switch_pro's autoping.py and reference §6.8.
let emu: RunningEmulator;
let api: string;
const csrf = { 'X-CSRF': 'x' };
const jsonBody = { ...csrf, 'Content-Type': 'application/json' };

beforeAll(async () => {
  emu = await startEmulator({
    autoping: true,
    cycleDelay: 0.2,
    sequenceDelay: 0,
    autopingAnswering: ['10.0.0.1'],
  });
  api = `${emu.url}/restapi`;
});
afterAll(() => emu.close());

beforeEach(async () => {
  for (const item of emu.device.autoping().items.reverse())
    await curl(`${api}/autoping/items/${item.index}/`, { method: 'DELETE', headers: csrf });
  emu.device.setAutoping({
    enabled: true,
    post_reboot_delay: 0,
    handle_failures_immediately: false,
    max_consecutive_reboot_count: 0,
    ping_interval: 60,
  });
  emu.device.autopingAnswers('10.0.0.2', false);
  for (let i = 0; i < 8; i++) emu.device.setOutlet(i, { state: true });
  await emu.device.whenSettled();
});

const create = (item: Record<string, unknown>) =>
  curl(`${api}/autoping/items/`, { method: 'POST', headers: jsonBody, data: JSON.stringify(item) });

describe('AutoPing items over REST', () => {
  it('lists, creates, edits, enables, disables and deletes items', async () => {
    const listed = json(await curl(`${api}/autoping/`)) as { items: unknown[]; ping_interval: number };
    expect(listed).toMatchObject({ items: [], enabled: true, pings_before_enabling: 10 });
    const created = await create({ addresses: ['10.0.0.1'], outlets: [2] });
    expect(created.status).toBe(201);
    expect(created.headers.location).toEqual(['/restapi/autoping/items/0/']);
    expect(json(await curl(`${api}/autoping/items/0/`))).toEqual({
      addresses: ['10.0.0.1'],
      outlets: [2],
      enabled: false,
      pings_before_enabling: null,
      script: '',
      resumption_trial: false,
      status: 'disabled',
    });
    // power_switch_pro's update_entry: GET, change, PUT the whole item back (through Python's urllib).
    const [put] = await python({
      base: emu.url,
      requests: [
        {
          method: 'PUT',
          path: '/restapi/autoping/items/0/',
          headers: jsonBody,
          body: JSON.stringify({
            addresses: ['10.0.0.1', '10.0.0.9'],
            outlets: [2, 3],
            enabled: true,
            pings_before_enabling: 3,
            script: '',
            resumption_trial: true,
          }),
        },
      ],
    });
    expect(put?.status).toBe(204);
    expect(emu.device.autoping().items[0]).toMatchObject({
      addresses: ['10.0.0.1', '10.0.0.9'],
      outlets: [2, 3],
      enabled: true,
      status: 'waiting',
    });
    const disable = await curl(`${api}/autoping/items/0/enabled/`, {
      method: 'PUT',
      headers: csrf,
      data: 'value=false',
    });
    expect(disable.status).toBe(204);
    expect(json(await curl(`${api}/autoping/items/0/status/`))).toBe('disabled');
    expect((await curl(`${api}/autoping/items/0/`, { method: 'DELETE', headers: csrf })).status).toBe(204);
    expect(json(await curl(`${api}/autoping/items/`))).toEqual([]);
  });

  it('refuses a bad item with 400 naming the field, and applies nothing', async () => {
    const bad = await create({ addresses: ['10.0.0.1'], outlets: [8] });
    expect(bad.status).toBe(400);
    expect(json(bad)).toMatchObject({ message: expect.stringMatching(/outlets .* 0 to 7/) });
    expect((await create({ outlets: [1] })).status).toBe(400);
    expect((await create({ addresses: ['10.0.0.1'], colour: 'red' })).status).toBe(400);
    expect(emu.device.autoping().items).toEqual([]);
    await create({ addresses: ['10.0.0.1'], outlets: [1] });
    const status = await curl(`${api}/autoping/items/0/`, {
      method: 'PATCH',
      headers: jsonBody,
      data: JSON.stringify({ enabled: true, status: 'ok' }),
    });
    expect(status.status).toBe(400);
    expect(emu.device.autoping().items[0]?.enabled).toBe(false);
  });

  it('is not there in the fast profile', async () => {
    const fast = await startEmulator();
    try {
      expect((await curl(`${fast.url}/restapi/autoping/`)).status).toBe(404);
    } finally {
      await fast.close();
    }
  });
});

describe('the simulated state machine', () => {
  it('arms after pings_before_enabling answers, and power-cycles the outlets when the target stops answering', async () => {
    emu.device.autopingAnswers('10.0.0.2', true);
    await create({ addresses: ['10.0.0.2'], outlets: [1, 4], enabled: true, pings_before_enabling: 2 });
    emu.device.autopingTick();
    expect(emu.device.autoping().items[0]?.status).toBe('waiting');
    emu.device.autopingTick();
    expect(emu.device.autoping().items[0]?.status).toBe('ok');
    emu.device.autopingAnswers('10.0.0.2', false);
    emu.device.autopingTick();
    expect(emu.device.autoping().items[0]?.status).toBe('failing');
    expect(emu.device.outlet(1).cycling).toBe(false);
    emu.device.autopingTick();
    expect(emu.device.autoping().items[0]).toMatchObject({ status: 'rebooting', reboots: 1 });
    expect([
      emu.device.outlet(1).cycling,
      emu.device.outlet(4).cycling,
      emu.device.outlet(2).cycling,
    ]).toEqual([true, true, false]);
    await emu.device.whenSettled();
    expect(emu.device.outlet(1).physicalState).toBe(true);
    // After the reboot, the resumption trial: it must answer again before it re-arms.
    await until(
      () => (emu.device.autopingTick(), emu.device.autoping().items[0]?.status),
      (status) => status === 'waiting',
    );
    expect(json(await curl(`${api}/autoping/items/0/status/`))).toBe('waiting');
  });

  it('never cycles for a target that never answered (it is not armed)', async () => {
    await create({ addresses: ['10.0.0.2'], outlets: [1], enabled: true, pings_before_enabling: 1 });
    for (let i = 0; i < 5; i++) emu.device.autopingTick();
    expect(emu.device.autoping().items[0]).toMatchObject({ status: 'waiting', reboots: 0 });
    expect(emu.device.outlet(1).cycling).toBe(false);
  });

  it('handle_failures_immediately cycles on the first unanswered round; max reboots halts it', async () => {
    emu.device.setAutoping({ handle_failures_immediately: true, max_consecutive_reboot_count: 1 });
    emu.device.autopingAnswers('10.0.0.2', true);
    await create({ addresses: ['10.0.0.2'], outlets: [3], enabled: true, pings_before_enabling: 0 });
    emu.device.autopingTick();
    emu.device.autopingAnswers('10.0.0.2', false);
    emu.device.autopingTick();
    expect(emu.device.autoping().items[0]).toMatchObject({ status: 'rebooting', reboots: 1 });
    await emu.device.whenSettled();
    emu.device.setAutoping({ resume_without_retrial: true });
    emu.device.autopingAnswers('10.0.0.2', true);
    emu.device.autopingTick();
    emu.device.autopingAnswers('10.0.0.2', false);
    emu.device.autopingTick();
    expect(emu.device.autoping().items[0]?.status).toBe('rebooting');
    await emu.device.whenSettled();
    emu.device.autopingTick();
    expect(emu.device.autoping().items[0]?.status).toBe('halted');
    expect(emu.device.outlet(3).cycling).toBe(false);
  });

  it("runs the item's script instead of the power cycle when it names a user function", async () => {
    emu.device.setAutoping({ handle_failures_immediately: true });
    emu.device.autopingAnswers('10.0.0.2', true);
    await create({
      addresses: ['10.0.0.2'],
      outlets: [5],
      enabled: true,
      pings_before_enabling: 0,
      script: 'flash_a_light',
    });
    emu.device.autopingTick();
    emu.device.autopingAnswers('10.0.0.2', false);
    emu.device.autopingTick();
    expect(emu.device.autoping().items[0]).toMatchObject({ status: 'rebooting', reboots: 1 });
    expect(emu.device.threads().map((thread) => thread.label)).toEqual([
      expect.stringMatching(/^flash_a_light \(autoping/),
    ]);
    expect(emu.device.outlet(5).cycling).toBe(false);
    emu.device.stopScripts();
  });

  it('pings on its own every ping_interval seconds', async () => {
    // The rounds run on the emulator's interval timer: faked here, so the test moves time itself and
    // sees each round fall due exactly ping_interval seconds after the last.
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'], shouldClearNativeTimers: true });
    const status = () => emu.device.autoping().items[0]?.status;
    try {
      await curl(`${api}/autoping/ping_interval/`, { method: 'PUT', headers: csrf, data: 'value=1' });
      await create({ addresses: ['10.0.0.1'], outlets: [0], enabled: true, pings_before_enabling: 1 });
      vi.advanceTimersByTime(999);
      expect(status()).toBe('waiting');
      vi.advanceTimersByTime(1);
      expect(status()).toBe('ok');
      // A new interval counts from when it was set; the next round finds the target silent.
      await curl(`${api}/autoping/ping_interval/`, { method: 'PUT', headers: csrf, data: 'value=3' });
      emu.device.autopingAnswers('10.0.0.1', false);
      vi.advanceTimersByTime(2999);
      expect(status()).toBe('ok');
      vi.advanceTimersByTime(1);
      expect(status()).toBe('failing');
    } finally {
      emu.device.autopingAnswers('10.0.0.1', true);
      vi.useRealTimers();
    }
  });
});
