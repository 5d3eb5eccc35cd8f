/**
 * One round of measurement 18: K desks (of one kind) on the slow unit. Desk 1 switches outlet 1 while
 * the others watch; an outside change of outlet 2 is made at the unit itself (its REST API, waiting its
 * turn like every client); the unit counts the requests it answers.
 */
import type { RunningEmulator } from '../../src-main/emulator/index';
import type { Desk } from './m18-desks';
import { clientFor } from './emulators';
import { median, now, percentile, sleep } from './numbers';

/** A switch starts at most this often (the next waits for the one before to be confirmed). */
export const SWITCH_EVERY_MS = 8_000;
/** How long a switch or an outside change may take to show before it counts as not seen. */
const SEEN_WITHIN_MS = 60_000;
/** After every desk shows the unit online: their first reads (a new Core reads more) are not idle. */
const SETTLE_MS = 10_000;
const SWITCHED = 1;
const CHANGED = 2;

export interface RoundResult {
  desks: number;
  /** Every desk showed the unit online with its outlets within the start-up wait. */
  allOnline: boolean;
  /** Switch call → confirmed in the switching desk, ms. */
  confirmed: number[];
  /** Switches refused, failed, or not confirmed in time (with why). */
  notConfirmed: string[];
  idlePerMinute: number;
  switchingPerMinute: number;
  /** Outside change answered by the unit → shown by every desk, ms. */
  outside: number[];
  notSeen: number;
  /** Statuses other than online the desks showed, all desks together. */
  problems: string[];
}

export interface UnitUnderTest {
  emulator: RunningEmulator;
  /** Where clients reach it (one request at a time). */
  url: string;
}

const requests = (unit: UnitUnderTest): number => unit.emulator.device.stats.requests;

export async function runRound(
  unit: UnitUnderTest,
  desks: Desk[],
  idleSeconds: number,
  switches: number,
  changes: number,
): Promise<RoundResult> {
  const allOnline = await Promise.all(
    desks.map((d) =>
      d
        .when((s) => s.status === 'online' && s.outlets.length > 0, `${d.name}: the unit online`, 90_000)
        .then(
          () => true,
          () => false,
        ),
    ),
  ).then((each) => each.every(Boolean));

  await sleep(SETTLE_MS);
  let count = requests(unit);
  let t0 = now();
  await sleep(idleSeconds * 1000);
  const idlePerMinute = ((requests(unit) - count) * 60_000) / (now() - t0);

  const switcher = desks[0]!;
  const confirmed: number[] = [];
  const notConfirmed: string[] = [];
  count = requests(unit);
  t0 = now();
  for (let i = 0; i < switches; i++) {
    const started = now();
    const on = !(switcher.state()?.outlets[SWITCHED - 1]?.physicalState ?? false);
    try {
      const result = await switcher.set([SWITCHED], on);
      if (result.failed.length) notConfirmed.push(`failed: ${JSON.stringify(result.failed[0])}`);
      else {
        const at = await switcher.when(
          (s) => {
            const outlet = s.outlets[SWITCHED - 1];
            return outlet?.physicalState === on && outlet.pending === null;
          },
          `outlet ${SWITCHED} confirmed ${on ? 'on' : 'off'}`,
          SEEN_WITHIN_MS,
        );
        confirmed.push(at - started);
      }
    } catch (error) {
      notConfirmed.push(error instanceof Error ? error.message : String(error));
    }
    await sleep(Math.max(0, SWITCH_EVERY_MS - (now() - started)));
  }
  const switchingPerMinute = ((requests(unit) - count) * 60_000) / (now() - t0);

  const outside: number[] = [];
  let notSeen = 0;
  const client = clientFor(unit.url);
  try {
    for (let i = 0; i < changes; i++) {
      // At any moment of the pollers' cycles, not always the same distance after one.
      await sleep(Math.random() * 3000);
      const on = !unit.emulator.device.outlet(CHANGED - 1).physicalState;
      await client.outlets.setState([CHANGED], on);
      const made = now();
      const seen = await Promise.all(
        desks.map((d) =>
          d
            .when(
              (s) => s.outlets[CHANGED - 1]?.physicalState === on,
              `${d.name}: outside change`,
              SEEN_WITHIN_MS,
            )
            .catch(() => null),
        ),
      );
      if (seen.some((at) => at === null)) notSeen++;
      else outside.push(Math.max(...(seen as number[])) - made);
    }
  } finally {
    await client.close();
  }
  return {
    desks: desks.length,
    allOnline,
    confirmed,
    notConfirmed,
    idlePerMinute,
    switchingPerMinute,
    outside,
    notSeen,
    problems: desks.flatMap((d) => d.problems),
  };
}

/** One line of the issue-style table for a round. */
export function roundLine(kind: string, r: RoundResult): string {
  const s = (ms: number[]) => (ms.length ? `${(median(ms) / 1000).toFixed(1)} s` : '—');
  const worst = r.confirmed.length ? `${(Math.max(...r.confirmed) / 1000).toFixed(1)} s` : '—';
  const p95 = r.outside.length ? `${(percentile(r.outside, 95) / 1000).toFixed(1)} s` : '—';
  const missing = [
    r.notConfirmed.length ? `${r.notConfirmed.length} switches not confirmed` : '',
    r.notSeen ? `${r.notSeen} outside changes not seen by every desk` : '',
    r.allOnline ? '' : 'not every desk had the unit online at the start',
    r.problems.length ? `${r.problems.length} non-online states` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `| ${r.desks} | ${kind} | ${s(r.confirmed)} | ${worst} | ${Math.round(r.idlePerMinute)} | ${Math.round(r.switchingPerMinute)} | ${p95} | ${missing || '—'} |`;
}

export const ROUND_HEADER = [
  '| desks | how | switch to confirmed, median | worst | unit requests/min idle | while switching | outside change seen by every desk, p95 | trouble |',
  '|---|---|---|---|---|---|---|---|',
].join('\n');
