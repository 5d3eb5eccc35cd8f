/**
 * 9. Command line against curl: wall time of one `plugboard outlets --json` (the built bin,
 * out/main/plugboard.js, under Node — what the package's `bin` and the packaged launcher run) against
 * one `curl --digest` of the outlet collection, on the same emulator (latency 0, 127.0.0.1). Both are
 * timed the same way, from spawning the process to its exit; the two alternate, after warm-up runs, so
 * a busy machine slows both alike. Median of each; the figure is the ratio. Informative baseline: the
 * same command from the source through tsx (`node --import tsx src-main/cli/main.ts`), and Node's own
 * start (`node -e 0`), the floor for any command written for Node.
 */
import { execFile } from 'node:child_process';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { PASSWORD, USER, assertCurl } from './baselines';
import { buildOnce, repoRoot } from './build';
import { startLocal } from './emulators';
import { median, now } from './numbers';
import { row, type Row } from './results';

const TARGET_RATIO = 12;
const RUNS = 21;
const TSX_RUNS = 5;
const WARM_UP = 3;

/** Wall time of one process, spawn to exit; rejects if it fails or prints no outlets. */
function timed(command: string, args: string[], expectOutlets = true): Promise<number> {
  const started = now();
  return new Promise((done, fail) => {
    execFile(command, args, { cwd: repoRoot, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      const elapsed = now() - started;
      if (error)
        fail(
          new Error(`${command} ${args.slice(0, 3).join(' ')}… failed: ${stderr.trim() || error.message}`),
        );
      else if (expectOutlets && !stdout.includes('"physical_state"'))
        fail(new Error(`${command} printed no outlets: ${stdout.slice(0, 200)}`));
      else done(elapsed);
    });
  });
}

export async function measureCli(): Promise<Row[]> {
  await assertCurl();
  await buildOnce();
  const { emulators, close } = await startLocal(1, { password: PASSWORD, latency: 0 });
  try {
    const url = emulators[0]!.url;
    const login = ['--url', url, '--user', USER, '--password', PASSWORD];
    const bin = [join(repoRoot, 'out', 'main', 'plugboard.js'), 'outlets', '--json', ...login];
    const viaTsx = [
      '--import',
      'tsx',
      join(repoRoot, 'src-main', 'cli', 'main.ts'),
      'outlets',
      '--json',
      ...login,
    ];
    const curl = ['-s', '-S', '-f', '--digest', '-u', `${USER}:${PASSWORD}`, `${url}/restapi/relay/outlets/`];
    for (let i = 0; i < WARM_UP; i++) {
      await timed(process.execPath, bin);
      await timed('curl', curl);
    }
    const loadBefore = loadavg()[0]!;
    const cliTimes: number[] = [];
    const curlTimes: number[] = [];
    const nodeTimes: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      cliTimes.push(await timed(process.execPath, bin));
      curlTimes.push(await timed('curl', curl));
      nodeTimes.push(await timed(process.execPath, ['-e', '0'], false));
    }
    const tsxTimes: number[] = [];
    for (let i = 0; i < TSX_RUNS; i++) tsxTimes.push(await timed(process.execPath, viaTsx));
    const loadAfter = loadavg()[0]!;
    const cli = median(cliTimes);
    const curlMedian = median(curlTimes);
    const ratio = cli / curlMedian;
    return [
      row({
        measurement: 9,
        figure: '`plugboard outlets --json` ÷ `curl --digest`, median wall time',
        value: ratio,
        unit: '×',
        target: `≤ ${TARGET_RATIO}×`,
        met: ratio <= TARGET_RATIO,
        // Node's start is CPU work and curl's hardly any, so the ratio rises with the machine's load.
        note: `${RUNS} alternating runs after ${WARM_UP} warm-ups, spawn to exit, latency 0; the bin is out/main/plugboard.js under ${process.version}; 1-minute load average ${loadBefore.toFixed(1)} before the runs, ${loadAfter.toFixed(1)} after.`,
      }),
      row({
        measurement: 9,
        figure: '`plugboard outlets --json` (built bin), median',
        value: cli,
        unit: 'ms',
        target: '',
        met: null,
        baselines: [
          { name: 'curl --digest (same emulator)', value: curlMedian },
          { name: 'node -e 0 (Node start alone)', value: median(nodeTimes) },
          { name: `node --import tsx (source), median of ${TSX_RUNS}`, value: median(tsxTimes) },
        ],
      }),
    ];
  } finally {
    await close();
  }
}
