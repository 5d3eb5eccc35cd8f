/**
 * 18. K desks attached to one lab service. The unit is the issue's: the emulator's real-unit profile
 * (`Connection: close` on every answer) with a 2 s full outlet list, answering one request at a time
 * (m18-one-at-a-time.ts). For K = 1, 4, 8 (m18-options.ts):
 *   - baseline, the old way: K desks each with its own Core polling the unit (in-process Cores with the
 *     unit saved, default 3 s poll, window visible);
 *   - the figure: K desks attached to one built `plugboard serve` (one Core polls the unit), each a
 *     remote link client signed in with its own account, subscribed to events, `app/snapshot` loaded.
 * Both kinds run side by side, each on its own unit. Desk 1 switches while the others watch (m18-round.ts): switch to confirmed (median, worst), the unit's
 * requests per minute idle and while switching (counted by the emulator), an outside change at the unit
 * until every desk shows it (p95). Targets: at K = 8 switch to confirmed within 1.2× of K = 1; the
 * unit's requests per minute independent of K (read here as within 10 % of K = 1's, idle).
 * Then the service's CPU and memory at 200 controllers with 50 link clients and a window (m18-scale.ts).
 */
import { startEmulator } from '../../src-main/emulator/index';
import { buildOnce } from './build';
import { onCleanup } from './cleanup';
import { attachedDesk, ownCoreDesk, type Desk } from './m18-desks';
import { oneAtATime } from './m18-one-at-a-time';
import { m18Options, type M18Options } from './m18-options';
import { ROUND_HEADER, roundLine, runRound, type RoundResult, type UnitUnderTest } from './m18-round';
import { measureScale } from './m18-scale';
import { addOperators, firstAdmin, savedLab, signIn, startServe } from './m18-service';
import { median } from './numbers';
import { row, type Row } from './results';

const SLOW_LIST_MS = 2000;
const UNIT_NAME = 'Slow unit';

async function slowUnit(): Promise<UnitUnderTest & { close: () => Promise<void> }> {
  const emulator = await startEmulator({
    name: UNIT_NAME,
    realUnit: true,
    slowOutletListMs: SLOW_LIST_MS,
    host: '127.0.0.1',
    port: 0,
  });
  const front = await oneAtATime(Number(new URL(emulator.url).port));
  const close = onCleanup(async () => {
    await front.close();
    await emulator.close();
  });
  return { emulator, url: front.url, close };
}

async function withDesks(make: () => Promise<Desk[]>, work: (desks: Desk[]) => Promise<RoundResult>) {
  const desks = await make();
  try {
    return await work(desks);
  } finally {
    await Promise.allSettled(desks.map((d) => d.close()));
  }
}

async function ownCoreRounds(options: M18Options): Promise<RoundResult[]> {
  const results: RoundResult[] = [];
  for (const k of options.desks) {
    const unit = await slowUnit();
    try {
      const result = await withDesks(
        () => Promise.all(Array.from({ length: k }, (_, i) => ownCoreDesk(`desk${i + 1}`, unit.url))),
        (desks) => runRound(unit, desks, options.idleSeconds, options.switches, options.changes),
      );
      console.log(`[18] ${k} desks, each with its own Core: ${summary(result)}`);
      results.push(result);
    } finally {
      await unit.close();
    }
  }
  return results;
}

async function attachedRounds(options: M18Options): Promise<RoundResult[]> {
  if (options.desks.length === 0) return [];
  const unit = await slowUnit();
  const lab = await savedLab([{ name: UNIT_NAME, url: unit.url, user: 'admin', password: '1234' }]);
  const serve = await startServe(lab, false);
  try {
    await firstAdmin(lab, 'admin');
    const admin = await signIn(serve.api, 'admin');
    const most = Math.max(...options.desks);
    const names = Array.from({ length: most }, (_, i) => `desk${i + 1}`);
    await addOperators(serve.api, admin, names);
    const sessions = await Promise.all(names.map((name) => signIn(serve.api, name)));
    const results: RoundResult[] = [];
    for (const k of options.desks) {
      const result = await withDesks(
        () =>
          Promise.all(
            names.slice(0, k).map((name, i) => attachedDesk(name, serve.api, sessions[i]!, UNIT_NAME)),
          ),
        (desks) => runRound(unit, desks, options.idleSeconds, options.switches, options.changes),
      );
      console.log(`[18] ${k} desks attached to one service: ${summary(result)}`);
      results.push(result);
    }
    return results;
  } finally {
    await serve.stop();
    await lab.remove();
    await unit.close();
  }
}

function summary(r: RoundResult): string {
  const confirmed = r.confirmed.length ? `${Math.round(median(r.confirmed))} ms` : 'none confirmed';
  return `switch ${confirmed}, ${Math.round(r.idlePerMinute)} req/min idle${r.notConfirmed.length ? `, not confirmed: ${r.notConfirmed.slice(0, 2).join('; ')}` : ''}${r.problems.length ? `, states: ${[...new Set(r.problems)].join(', ')}` : ''}`;
}

const worst = (values: number[]) => (values.length ? Math.max(...values) : Number.NaN);
const medianOr = (values: number[]) => (values.length ? median(values) : Number.NaN);
const p95Or = (values: number[]) =>
  values.length ? [...values].sort((a, b) => a - b)[Math.ceil(0.95 * values.length) - 1]! : Number.NaN;

function rows(own: RoundResult[], attached: RoundResult[]): Row[] {
  const out: Row[] = [];
  const base = (k: number) => own.find((r) => r.desks === k);
  for (const r of attached) {
    const b = base(r.desks);
    const trouble = (x: RoundResult | undefined, who: string) =>
      x && (x.notConfirmed.length || x.notSeen || x.problems.length)
        ? ` ${who}: ${x.notConfirmed.length} switches not confirmed, ${x.notSeen} outside changes not seen by all, ${x.problems.length} non-online states (${[...new Set(x.problems)].join(', ') || 'none'}).`
        : '';
    out.push(
      row({
        measurement: 18,
        figure: `${r.desks} desk(s): switch to confirmed, median`,
        value: Math.round(medianOr(r.confirmed)),
        unit: 'ms',
        target: '',
        met: null,
        baselines: b
          ? [{ name: `${r.desks} desk(s), each with its own Core`, value: Math.round(medianOr(b.confirmed)) }]
          : [],
        note: `attached: ${r.confirmed.length} confirmed, worst ${Math.round(worst(r.confirmed))} ms; own Cores: ${b?.confirmed.length ?? 0} confirmed, worst ${Math.round(worst(b?.confirmed ?? []))} ms.${trouble(r, 'attached')}${trouble(b, 'own Cores')}`,
      }),
      row({
        measurement: 18,
        figure: `${r.desks} desk(s): unit requests/min, idle`,
        value: Math.round(r.idlePerMinute),
        unit: '/min',
        target: '',
        met: null,
        baselines: b
          ? [{ name: `${r.desks} desk(s), each with its own Core`, value: Math.round(b.idlePerMinute) }]
          : [],
        note: `while switching: attached ${Math.round(r.switchingPerMinute)}/min, own Cores ${b ? Math.round(b.switchingPerMinute) : '—'}/min.`,
      }),
      row({
        measurement: 18,
        figure: `${r.desks} desk(s): outside change → shown in every desk, p95`,
        value: Math.round(p95Or(r.outside)),
        unit: 'ms',
        target: '',
        met: null,
        baselines: b
          ? [{ name: `${r.desks} desk(s), each with its own Core`, value: Math.round(p95Or(b.outside)) }]
          : [],
        note: `${r.outside.length} changes made through the unit's REST API (waiting their turn), from its answer to the last desk's pushed state; median ${Math.round(medianOr(r.outside))} ms.`,
      }),
    );
  }
  const first = attached[0];
  const last = attached[attached.length - 1];
  if (first && last && last !== first) {
    const ratio = medianOr(last.confirmed) / medianOr(first.confirmed);
    const reqRatio = last.idlePerMinute / first.idlePerMinute;
    out.push(
      row({
        measurement: 18,
        figure: `attached: switch to confirmed, K=${last.desks} ÷ K=${first.desks}`,
        value: ratio,
        unit: '×',
        target: '≤ 1.2×',
        met: ratio <= 1.2,
        note: `medians ${Math.round(medianOr(last.confirmed))} ms and ${Math.round(medianOr(first.confirmed))} ms.`,
      }),
      row({
        measurement: 18,
        figure: `attached: unit requests/min idle, K=${last.desks} ÷ K=${first.desks}`,
        value: reqRatio,
        unit: '×',
        target: 'independent of K (≤ 1.1×)',
        met: reqRatio <= 1.1,
        note: `${Math.round(last.idlePerMinute)} and ${Math.round(first.idlePerMinute)} requests/min; while switching ${Math.round(last.switchingPerMinute)} and ${Math.round(first.switchingPerMinute)}.`,
      }),
    );
  }
  return out;
}

export async function measureLabService(quick: boolean): Promise<Row[]> {
  const options = m18Options(quick);
  await buildOnce();
  // The two kinds run at the same time, each on a unit of its own: the rounds mostly wait on their
  // slow unit, so this halves the run, and both see the same load on the machine.
  const settled = await Promise.allSettled([ownCoreRounds(options), attachedRounds(options)]);
  const failed = settled.find((s) => s.status === 'rejected');
  if (failed) throw failed.reason;
  const [own, attached] = settled.map((s) => (s as PromiseFulfilledResult<RoundResult[]>).value) as [
    RoundResult[],
    RoundResult[],
  ];
  if (options.desks.length) {
    console.log(`\n[18] the issue's table, measured:\n${ROUND_HEADER}`);
    for (const r of own) console.log(roundLine('each with its own Core', r));
    for (const r of attached) console.log(roundLine('attached to one service', r));
  }
  const scale = options.clients > 0 ? await measureScale(options) : [];
  return [...rows(own, attached), ...scale];
}
