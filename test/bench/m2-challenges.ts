/**
 * 2. Challenge overhead: the share of requests answered 401 over 1,000 operations through Plugboard
 * (contract calls through the dispatcher: refreshes and outlet actions, with the polls they set off),
 * against curl (one process per command) and a naive digest-fetch script doing the same operations.
 */
import { curl, NaiveClient } from './baselines';
import { startCore, settled } from './core-harness';
import { startLocal } from './emulators';
import { waitFor } from './numbers';
import { row, type Row } from './results';

const OPERATIONS = 1000;

export async function measureChallenges(): Promise<Row[]> {
  // No added latency: the share does not depend on it, and 3 × 1,000 operations stay quick.
  const { emulators, close } = await startLocal(1, { latency: 0, sequenceDelay: 0, cycleDelay: 0.05 });
  const emulator = emulators[0]!;
  const stats = emulator.device.stats;
  const count = emulator.device.outletCount;
  try {
    // Plugboard: everything from the first connection on is counted, the first challenge included.
    stats.reset();
    const run = await startCore([emulator.url], { pollIntervalMs: 3000 });
    const id = run.ids[0]!;
    await run.online();
    for (let i = 0; i < OPERATIONS; i++) {
      const outlet = (i % count) + 1;
      switch (i % 4) {
        case 0:
          await run.call('controllers/refresh', { id });
          break;
        case 1:
          await run.call('outlets/set', { controllerId: id, outlets: [outlet], on: true });
          break;
        case 2:
          await run.call('outlets/switch', { controllerId: id, changes: [{ outlet, on: false }] });
          break;
        default:
          await run.call('outlets/set', { controllerId: id, outlets: 'all', on: i % 8 === 3 });
      }
    }
    await waitFor(() => settled(run), 'the last changes to be confirmed');
    await run.dispose();
    const plugboard = { requests: stats.requests, unauthorized: stats.unauthorized };

    stats.reset();
    const naive = new NaiveClient(emulator.url);
    for (let i = 0; i < OPERATIONS; i++) {
      const index = i % count;
      if (i % 2 === 0) await naive.get(`relay/outlets/${index}/state/`);
      else await naive.put(`relay/outlets/${index}/state/`, String(i % 4 === 1));
    }
    const naiveStats = { requests: stats.requests, unauthorized: stats.unauthorized };

    stats.reset();
    for (let i = 0; i < OPERATIONS; i++) {
      const url = `${emulator.url}/restapi/relay/outlets/${i % count}/state/`;
      const answer = await (i % 2 === 0
        ? curl(url)
        : curl(url, { method: 'PUT', data: `value=${i % 4 === 1}` }));
      if (answer.status >= 300) throw new Error(`curl answered ${answer.status}`);
    }
    const curlStats = { requests: stats.requests, unauthorized: stats.unauthorized };

    const share = (s: { requests: number; unauthorized: number }) => (100 * s.unauthorized) / s.requests;
    return [
      row({
        measurement: 2,
        figure: `401 share over ${OPERATIONS} operations`,
        value: share(plugboard),
        unit: '%',
        target: '< 1 %',
        met: share(plugboard) < 1,
        baselines: [
          { name: 'curl --digest, 1 process/command', value: share(curlStats) },
          { name: 'naive digest-fetch script', value: share(naiveStats) },
        ],
        note: `Plugboard: ${plugboard.unauthorized} of ${plugboard.requests} requests (connect, ${OPERATIONS} refreshes/switches and their confirming polls); curl ${curlStats.unauthorized}/${curlStats.requests}; naive ${naiveStats.unauthorized}/${naiveStats.requests}.`,
      }),
    ];
  } finally {
    await close();
  }
}
