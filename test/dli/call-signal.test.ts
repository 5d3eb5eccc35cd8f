import { getEventListeners } from 'node:events';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DliClient } from '../../src-main/dli/client';
import { startEmulator, type RunningEmulator } from '../../src-main/emulator';

/**
 * A poller passes one long-lived signal to every call. Each call must leave that signal as it found it:
 * no listener left behind (and no AbortSignal.any, whose combined signals Node 20 never frees).
 */
let emu: RunningEmulator;
beforeAll(async () => {
  emu = await startEmulator();
});
afterAll(async () => {
  await emu.close();
});

it('leaves no listener on the caller’s signal, whatever the outcome, and still cancels', async () => {
  const client = new DliClient({
    url: emu.url,
    credentials: { kind: 'digest', user: 'admin', password: '1234' },
  });
  const session = new AbortController();
  for (let i = 0; i < 20; i++) await client.refresh({ signal: session.signal });
  await expect(client.outlets.setState([99], true, { signal: session.signal })).rejects.toMatchObject({
    code: 'BAD_INPUT',
  });
  expect(getEventListeners(session.signal, 'abort')).toHaveLength(0);
  // Node keeps signals made with AbortSignal.any in this internal set of the source signal.
  const dependants = Object.getOwnPropertySymbols(session.signal).find(
    (s) => s.description === 'kDependantSignals',
  );
  expect(
    dependants ? ((session.signal as unknown as Record<symbol, Set<unknown>>)[dependants]?.size ?? 0) : 0,
  ).toBe(0);

  emu.device.faults.add({ kind: 'hang', times: 1 });
  const hanging = client.outlets.list({ signal: session.signal });
  session.abort();
  await expect(hanging).rejects.toMatchObject({ code: 'CANCELLED' });
  emu.device.faults.clear();
  await client.close();
});
