/**
 * `npm run bench [-- --quick] [--json FILE] [--only 1,3]`: Plugboard against the usual ways of driving
 * these controllers, on the same emulated controllers (127.0.0.1 only), in one run. See docs/performance.md.
 */
import { writeFile } from 'node:fs/promises';
import { cpus, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { cleanupAll, installSignalHandlers, isStopping } from './cleanup';
import { measureRefresh } from './m1-refresh';
import { measureChallenges } from './m2-challenges';
import { measureFanout } from './m3-fanout';
import { measureSwitching } from './m4-switching';
import { measureOverhead } from './m5-overhead';
import { measureBundle } from './m6-bundle';
import { measureMemory } from './m7-memory';
import { measureFirstState } from './m8-first-state';
import { measureCli } from './m9-cli';
import { measureTlsHandshakes } from './m10-tls-handshakes';
import { measureSlowUnit } from './m11-slow-unit';
import { measurePdudaemon } from './m12-pdudaemon';
import { measureConsole200 } from './m13-console-200';
import { measureRestart } from './m14-restart';
import { measureShutdownFlood } from './m15-shutdown-flood';
import { measureLabStore } from './m16-lab-store';
import { measureTakeover } from './m17-takeover';
import { measureLabService } from './m18-lab-service';
import { measureUnitMqtt } from './m19-unit-mqtt';
import { now } from './numbers';
import { formatMachine, formatNotes, formatTable, type BenchReport, type Row } from './results';

const USAGE = `Usage: npm run bench [-- --quick] [--json FILE] [--only 1,2,…]
  --quick      shorten the memory run (7) and the slow-unit run (11) to 60 s, 18's rounds, and the quiet
               minutes of 19 to 30 s; the rest is unchanged
  --json FILE  also write the results as JSON
  --only LIST  run only these measurements (numbers as listed in README.md, comma-separated)`;

interface Measurement {
  number: number;
  title: string;
  run: (options: { quick: boolean }) => Promise<Row[]>;
}

const MEASUREMENTS: Measurement[] = [
  { number: 1, title: 'requests per full refresh', run: () => measureRefresh() },
  { number: 2, title: 'challenge overhead', run: () => measureChallenges() },
  { number: 3, title: 'fan-out to 1, 10 and 50 controllers', run: () => measureFanout() },
  { number: 4, title: 'simultaneous switching', run: () => measureSwitching() },
  { number: 5, title: 'action overhead', run: () => measureOverhead() },
  { number: 6, title: 'renderer bundle', run: () => measureBundle() },
  { number: 7, title: 'memory while polling 50 controllers', run: ({ quick }) => measureMemory(quick) },
  { number: 8, title: 'start to first state', run: () => measureFirstState() },
  { number: 9, title: 'command line against curl', run: () => measureCli() },
  { number: 10, title: 'TLS handshakes, unit closing every connection', run: () => measureTlsHandshakes() },
  { number: 11, title: 'slow unit over HTTPS', run: ({ quick }) => measureSlowUnit(quick) },
  { number: 12, title: 'pdudaemon protocol at 20 controllers', run: () => measurePdudaemon() },
  { number: 13, title: 'a console for 200 controllers', run: ({ quick }) => measureConsole200(quick) },
  { number: 14, title: 'restart after kill -9', run: () => measureRestart() },
  { number: 15, title: 'shutdown under a flood', run: () => measureShutdownFlood() },
  { number: 16, title: 'the lab store: appends and a query over a million', run: () => measureLabStore() },
  { number: 17, title: 'a standby taking over after kill -9', run: () => measureTakeover() },
  {
    number: 18,
    title: 'K desks attached to one lab service',
    run: ({ quick }) => measureLabService(quick),
  },
  {
    number: 19,
    title: 'a unit publishing its changes over MQTT',
    run: ({ quick }) => measureUnitMqtt(quick),
  },
];

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      quick: { type: 'boolean', default: false },
      json: { type: 'string' },
      only: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const only = values.only ? values.only.split(',').map((s) => Number(s.trim())) : null;
  if (only?.some((n) => !MEASUREMENTS.some((m) => m.number === n))) {
    const known = MEASUREMENTS.map((m) => m.number).join(', ');
    console.error(`--only takes measurement numbers (${known}), e.g. --only 1,3\n\n${USAGE}`);
    return 2;
  }
  const quick = values.quick;
  const started = now();
  const report: BenchReport = {
    machine: {
      cores: cpus().length,
      cpu: cpus()[0]?.model.trim() ?? 'unknown',
      memoryGiB: Math.round(totalmem() / 2 ** 30),
      node: process.version,
      platform: `${process.platform} ${process.arch}`,
      date: new Date().toISOString(),
      quick,
    },
    rows: [],
    skipped: [],
    durationSeconds: 0,
  };
  console.log(formatMachine(report.machine));
  for (const measurement of MEASUREMENTS) {
    if (only && !only.includes(measurement.number)) continue;
    if (isStopping()) break;
    const t0 = now();
    console.log(`\n[${measurement.number}] ${measurement.title}…`);
    try {
      const rows = await measurement.run({ quick });
      report.rows.push(...rows);
      console.log(`[${measurement.number}] done in ${((now() - t0) / 1000).toFixed(1)} s`);
    } catch (error) {
      if (isStopping()) break;
      const reason = error instanceof Error ? error.message : String(error);
      report.skipped.push({ measurement: measurement.number, reason });
      console.error(`[${measurement.number}] FAILED: ${reason}`);
    }
  }
  if (isStopping()) return 130;
  report.durationSeconds = Math.round((now() - started) / 1000);
  console.log(`\n${formatMachine(report.machine)}\n\n${formatTable(report)}\n\n${formatNotes(report)}`);
  console.log(`\nTotal: ${report.durationSeconds} s`);
  if (values.json) {
    await writeFile(values.json, `${JSON.stringify(report, null, 2)}\n`);
    console.log(`Results written to ${values.json}`);
  }
  return report.skipped.length ? 1 : 0;
}

installSignalHandlers();
main()
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  })
  .catch(async (error: unknown) => {
    console.error(error);
    await cleanupAll();
    process.exit(1);
  });
