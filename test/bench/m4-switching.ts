/**
 * 4. Simultaneous switching. Eight outlets on one controller (`outlets/switch`: must be one request),
 * and one outlet on each of eight controllers (`groups/run`), through the Core. The emulators run in this
 * process, so Plugboard and the emulators share one monotonic clock. Two spreads are taken per trial:
 * on arrival at the emulators (arrivals.ts) and on departure, when undici writes each request's headers
 * (departures.ts). Neither bounds the other here: the emulators' handlers run only when Plugboard's code
 * yields the shared event loop, which can bunch arrivals closer than departures, while a slow handler can
 * spread them wider. The figure is the larger of the two. Then the time until the Core shows every
 * outlet confirmed (pending → none, physical state as asked). Baseline: one by one.
 */
import type { RunningEmulator } from '../../src-main/emulator/index';
import { recordArrivals, type Arrival } from './arrivals';
import { NaiveClient } from './baselines';
import { startCore, type CoreRun } from './core-harness';
import { isWrite, recordDepartures, spread } from './departures';
import { startLocal } from './emulators';
import { median, now, sleep, waitFor } from './numbers';
import { row, type Row } from './results';

const LATENCY_MS = 50;
const TRIALS = 5;
/** The emulators' default on-sequence delay (0.5 s) stands; trials wait it out so each starts clean. */
const BETWEEN_TRIALS_MS = 700;

interface Trial {
  writes: number;
  /** The larger of the arrival and departure spreads (see the file comment). */
  spread: number;
  arrivalSpread: number;
  departureSpread: number;
  confirmMs: number;
}

function summarise(trials: Trial[]) {
  return {
    writes: Math.max(...trials.map((t) => t.writes)),
    spread: Math.max(...trials.map((t) => t.spread)),
    arrivalSpread: Math.max(...trials.map((t) => t.arrivalSpread)),
    departureSpread: Math.max(...trials.map((t) => t.departureSpread)),
    confirmMs: median(trials.map((t) => t.confirmMs)),
  };
}

async function switchOff(
  run: CoreRun | null,
  emulators: RunningEmulator[],
  outlets: (e: number) => number[],
) {
  emulators.forEach((e, i) => outlets(i).forEach((index) => e.device.setOutlet(index, { state: false })));
  if (run) await Promise.all(run.ids.map((id) => run.call('controllers/refresh', { id })));
  await sleep(BETWEEN_TRIALS_MS);
}

export async function measureSwitching(): Promise<Row[]> {
  const { emulators, close } = await startLocal(8, { latency: LATENCY_MS });
  const arrivals = recordArrivals(emulators);
  const departures = recordDepartures();
  const count = emulators[0]!.device.outletCount;
  const all = Array.from({ length: count }, (_, i) => i);
  const first = emulators[0]!;
  try {
    const run = await startCore(
      emulators.map((e) => e.url),
      { pollIntervalMs: 600_000, timing: { slowEveryMs: 3_600_000 } },
    );
    await run.online();
    const firstId = run.ids[0]!;
    const group = await run.call('groups/save', {
      name: 'Bench across eight',
      members: run.ids.map((controllerId) => ({ controllerId, outlet: 1 })),
    });

    /** Time one switching action from the call to the Core's confirmation. */
    const trial = async (
      act: () => Promise<unknown>,
      confirmed: () => Promise<number>,
      fromEmulators: ReadonlySet<number>,
    ): Promise<Trial> => {
      const a = arrivals.arrivals.length;
      const d = departures.departures.length;
      const start = now();
      const confirming = confirmed();
      await act();
      const confirmAt = await confirming;
      const writes = arrivals.arrivals
        .slice(a)
        .filter((x: Arrival) => isWrite(x.method) && fromEmulators.has(x.emulator));
      const origins = new Set([...fromEmulators].map((i) => new URL(emulators[i]!.url).origin));
      const sent = departures.departures.slice(d).filter((x) => isWrite(x.method) && origins.has(x.origin));
      return {
        writes: writes.length,
        spread: Math.max(spread(writes), spread(sent)),
        arrivalSpread: spread(writes),
        departureSpread: spread(sent),
        confirmMs: confirmAt - start,
      };
    };

    const oneController: Trial[] = [];
    for (let t = 0; t < TRIALS; t++) {
      await switchOff(run, emulators, (i) => (i === 0 ? all : []));
      oneController.push(
        await trial(
          () =>
            run.call('outlets/switch', {
              controllerId: firstId,
              changes: all.map((index) => ({ outlet: index + 1, on: true })),
            }),
          () =>
            run.when(
              (states) =>
                states.get(firstId)?.outlets.every((o) => o.physicalState && o.pending === null) ?? false,
              'eight outlets confirmed on',
            ),
          new Set([0]),
        ),
      );
    }

    const acrossControllers: Trial[] = [];
    for (let t = 0; t < TRIALS; t++) {
      await switchOff(run, emulators, () => [0]);
      acrossControllers.push(
        await trial(
          () => run.call('groups/run', { id: group.id, action: 'on' }),
          () =>
            run.when(
              (states) =>
                run.ids.every((id) => {
                  const outlet = states.get(id)?.outlets[0];
                  return outlet !== undefined && outlet.physicalState && outlet.pending === null;
                }),
              'outlet 1 confirmed on on eight controllers',
            ),
          new Set(emulators.map((_, i) => i)),
        ),
      );
    }
    await run.dispose();

    // Baselines: a script switching one outlet after another; "confirmed" is read straight off the
    // emulated relays (more than such a script knows).
    const physicallyOn = (pairs: [RunningEmulator, number][]) => () =>
      waitFor(() => pairs.every(([e, i]) => e.device.outlet(i).physicalState), 'relays on', 30_000, 1).then(
        now,
      );
    const naive = emulators.map((e) => new NaiveClient(e.url));
    await Promise.all(naive.map((n) => n.get('relay/outlets/0/state/')));
    const oneByOne: Trial[] = [];
    const oneByOneAcross: Trial[] = [];
    for (let t = 0; t < Math.min(TRIALS, 3); t++) {
      await switchOff(null, emulators, (i) => (i === 0 ? all : []));
      oneByOne.push(
        await trial(
          async () => {
            for (const index of all) await naive[0]!.put(`relay/outlets/${index}/state/`, 'true');
          },
          physicallyOn(all.map((i) => [first, i])),
          new Set([0]),
        ),
      );
      await switchOff(null, emulators, () => [0]);
      oneByOneAcross.push(
        await trial(
          async () => {
            for (const client of naive) await client.put('relay/outlets/0/state/', 'true');
          },
          physicallyOn(emulators.map((e) => [e, 0])),
          new Set(emulators.map((_, i) => i)),
        ),
      );
    }

    const one = summarise(oneController);
    const across = summarise(acrossControllers);
    const base = summarise(oneByOne);
    const baseAcross = summarise(oneByOneAcross);
    return [
      row({
        measurement: 4,
        figure: `${count} outlets, 1 controller: write requests`,
        value: one.writes,
        unit: 'req',
        target: '1',
        met: one.writes === 1,
        baselines: [{ name: 'one by one', value: base.writes }],
      }),
      row({
        measurement: 4,
        figure: `${count} outlets, 1 controller: spread`,
        value: one.spread,
        unit: 'ms',
        target: '≤ 10 ms',
        met: one.spread <= 10,
        baselines: [{ name: 'one by one', value: base.spread }],
      }),
      row({
        measurement: 4,
        figure: `${count} outlets, 1 controller: until confirmed`,
        value: one.confirmMs,
        unit: 'ms',
        target: '',
        met: null,
        baselines: [{ name: 'one by one (relays settled)', value: base.confirmMs }],
        note: `median of ${TRIALS}; ${LATENCY_MS} ms latency; the one-by-one relays also wait out the 0.5 s on-sequence delay, which simultaneous switching skips.`,
      }),
      row({
        measurement: 4,
        figure: '1 outlet × 8 controllers: spread',
        value: across.spread,
        unit: 'ms',
        target: '≤ 10 ms',
        met: across.spread <= 10,
        baselines: [{ name: 'one by one', value: baseAcross.spread }],
        note: `worst of ${TRIALS} trials, the larger of: on arrival at the emulators ${across.arrivalSpread.toFixed(2)} ms, on departure (undici sendHeaders) ${across.departureSpread.toFixed(2)} ms.`,
      }),
      row({
        measurement: 4,
        figure: '1 outlet × 8 controllers: until confirmed',
        value: across.confirmMs,
        unit: 'ms',
        target: '',
        met: null,
        baselines: [{ name: 'one by one (relays settled)', value: baseAcross.confirmMs }],
      }),
    ];
  } finally {
    departures.stop();
    arrivals.restore();
    await close();
  }
}
