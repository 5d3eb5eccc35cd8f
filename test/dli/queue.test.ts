/**
 * One request in flight per controller, many controllers in parallel, interactive ahead of background,
 * and the read path's cost: requests per full refresh and the share of 401s (the emulator counts them).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { recordingProxy, type RecordingProxy } from '../core/recording-proxy';
import { client, emulator } from './helpers';

const proxies: RecordingProxy[] = [];
afterEach(async () => {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
});

describe('the per-controller queue', () => {
  it('never has more than one request in flight per controller, even across clients', async () => {
    const unit = await emulator({ latency: 20 });
    const a = client(unit.url);
    const b = client(unit.url);
    await Promise.all([
      ...Array.from({ length: 10 }, () => a.outlets.list()),
      ...Array.from({ length: 5 }, () => b.meters()),
      a.outlets.setState([1, 2], true),
      b.outlets.switch([{ outlet: 3, on: true }]),
      a.describe(),
    ]);
    expect(unit.device.stats.maxInFlight).toBe(1);
    expect(unit.device.stats.requests).toBeGreaterThan(20);
  });

  it('serves several controllers in parallel', async () => {
    const units = await Promise.all([1, 2, 3].map(() => emulator()));
    // Every request is held until one has arrived from each client: served one controller after
    // another, the first would wait for ever (and the test end at its timeout).
    let arrived = 0;
    let allArrived!: () => void;
    const gate = new Promise<void>((resolve) => (allArrived = resolve));
    for (const unit of units)
      proxies.push(
        await recordingProxy(unit.url, {
          hold: () => {
            if (++arrived === units.length) allArrived();
            return gate;
          },
        }),
      );
    const lists = await Promise.all(proxies.map((proxy) => client(proxy.url).outlets.list()));
    expect(lists.map((outlets) => outlets.length)).toEqual([8, 8, 8]);
    units.forEach((unit) => expect(unit.device.stats.maxInFlight).toBe(1));
  });

  it('lets an interactive action overtake queued background polls', async () => {
    const unit = await emulator({ latency: 30 });
    const c = client(unit.url);
    await c.outlets.list();
    unit.device.stats.reset();
    const polls = Array.from({ length: 4 }, () => c.refresh({ meters: false }));
    const click = c.outlets.setState([2], true);
    await Promise.all([...polls, click]);
    const order = unit.device.stats.log.map((e) => e.method);
    expect(order).toEqual(['GET', 'PUT', 'GET', 'GET', 'GET']);
  });
});

describe('read path efficiency', () => {
  it('a full refresh (outlets + meters) is 2 requests, and 401s stay under 1 % over 1,000 operations', async () => {
    const unit = await emulator();
    const c = client(unit.url);
    await c.describe();
    unit.device.stats.reset();
    const refresh = await c.refresh();
    expect(refresh.outlets).toHaveLength(8);
    expect(refresh.meters?.length).toBeGreaterThan(0);
    expect(unit.device.stats.requests).toBe(2);

    const fresh = client(unit.url);
    unit.device.stats.reset();
    for (let i = 0; i < 1000; i++) {
      if (i % 10 === 9) await fresh.outlets.setState([(i % 8) + 1], i % 20 === 9);
      else if (i % 2 === 0) await fresh.outlets.list();
      else await fresh.meters();
    }
    const { requests, unauthorized } = unit.device.stats;
    expect(requests).toBe(1001);
    expect(unauthorized).toBe(1);
    expect(unauthorized / requests).toBeLessThan(0.01);
  });
});
