/**
 * `activity`: the activity log through the Core (who did what, through which door, and what the unit
 * confirmed), oldest first like a log file. Filters: --controller, --outlet, --who, --door, --since,
 * --until. `--json` prints one JSON array (as every --json of this CLI: one document); `--csv` exports
 * RFC 4180 CSV (core/activity/activity-export.ts, the same as the Activity panel's export). Without
 * --limit, both read the log a page at a time and write each page as it comes: a year of a farm's log
 * is never held at once.
 */
import type { Command } from 'commander';
import type { CallInput } from '../../src-preload/contract';
import { ACTIVITY_DOORS, type ActivityDoor, type ActivityEntry } from '../../src-preload/model';
import { activityActionText, localDateTime } from '../../src-preload/words';
import type { Runner } from './command-context';
import { leaf } from './global-options';
import { UsageError, excerpt } from './io';
import { renderTable } from './table';

const UNITS: Record<string, number> = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** Entries a page of a long read holds. */
const PAGE = 1_000;

/** `--since`, `--until`: an age (`30m`, `2h`, `7d`) or a date and time (`2026-11-24`, `2026-11-24T08:00`), as epoch ms. */
export function parseSince(text: string, now: number, option = '--since'): number {
  const age = /^\s*(\d+(?:\.\d+)?)\s*([smhd])\s*$/i.exec(text);
  if (age) return now - Number(age[1]) * UNITS[age[2]!.toLowerCase()]!;
  const time = /^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?)?(Z|[+-]\d{2}:?\d{2})?$/.test(
    text.trim(),
  )
    ? Date.parse(text.trim().replace(' ', 'T'))
    : Number.NaN;
  if (Number.isNaN(time)) {
    throw new UsageError(
      `${option} "${excerpt(text)}" is neither an age (30m, 2h, 7d) nor a date (2026-11-24 or 2026-11-24T08:00).`,
    );
  }
  return time;
}

export function registerActivityCommands(program: Command, run: Runner): void {
  leaf(
    program
      .command('activity')
      .description('the activity log: who switched what, through which door, and the result')
      .option('--outlet <number>', 'only this outlet (with --controller)')
      .option('--who <name>', 'only what this person or token did (e.g. your OS user name)')
      .option('--door <door>', `only through this door: ${ACTIVITY_DOORS.join(', ')}`)
      .option('--since <when>', 'from an age ago (30m, 2h, 7d) or a date (2026-11-24T08:00)')
      .option('--until <when>', 'up to an age ago or a date, as --since (a date alone: its start)')
      .option(
        '--limit <n>',
        'at most this many, the newest (default: 50 on screen, all with --json or --csv)',
      )
      .option('--csv', 'CSV on stdout (time in UTC, ISO 8601)'),
    ['--url'],
  ).action(
    run(async (context) => {
      const o = context.options;
      if (o.csv === true && context.json) throw new UsageError('Give --json or --csv, not both.');
      const door = o.door as string | undefined;
      if (door !== undefined && !(ACTIVITY_DOORS as readonly string[]).includes(door)) {
        throw new UsageError(`--door must be one of ${ACTIVITY_DOORS.join(', ')}.`);
      }
      const outlet = o.outlet === undefined ? undefined : Number(o.outlet);
      if (outlet !== undefined && (!Number.isInteger(outlet) || outlet < 1 || outlet > 64)) {
        throw new UsageError('--outlet takes an outlet number: 1, 2, 3… as on the hardware.');
      }
      const limit = o.limit === undefined ? (o.csv || context.json ? undefined : 50) : Number(o.limit);
      if (limit !== undefined && (!Number.isInteger(limit) || limit < 1 || limit > 100_000)) {
        throw new UsageError('--limit takes a whole number from 1 to 100000.');
      }
      const now = Date.now();
      const since = o.since === undefined ? undefined : parseSince(String(o.since), now);
      const until = o.until === undefined ? undefined : parseSince(String(o.until), now, '--until');
      if (since !== undefined && until !== undefined && until < since)
        throw new UsageError('--until is before --since: give the range from its start to its end.');
      const { withCore } = await import('./core-access');
      await withCore(context, async (core) => {
        let controllerId: string | undefined;
        if (o.controller !== undefined) {
          const wanted = String(o.controller).trim().toLowerCase();
          const saved = (await core.call('controllers/list', {})).find(
            (c) => c.name.toLowerCase() === wanted || c.id === o.controller,
          );
          if (!saved)
            throw new UsageError(`No saved controller is called "${excerpt(String(o.controller))}".`);
          controllerId = saved.id;
        }
        const filter: CallInput<'activity/list'> = {
          ...(controllerId ? { controllerId } : {}),
          ...(outlet ? { outlet } : {}),
          ...(typeof o.who === 'string' ? { who: o.who } : {}),
          ...(door ? { door: door as ActivityDoor } : {}),
          ...(since !== undefined ? { since } : {}),
          ...(until !== undefined ? { until } : {}),
        };
        const { terminal } = context;
        if (limit === undefined) {
          // --json or --csv of the whole range: page by page, each written as it comes.
          const { activityCsvPage } = await import('./core-exports');
          const out = terminal.io.out;
          let after: number | undefined;
          let written = 0;
          for (;;) {
            const page = await core.call('activity/list', { ...filter, order: 'oldest', limit: PAGE, after });
            if (o.csv === true) out.write(activityCsvPage(page, after === undefined));
            else for (const entry of page) out.write(jsonElement(entry, written++));
            if (page.length < PAGE) break;
            after = page.at(-1)!.id;
          }
          if (o.csv !== true) out.write(written === 0 ? '[]\n' : '\n]\n');
          return;
        }
        const entries = (await core.call('activity/list', { ...filter, limit })).reverse();
        if (context.json) return terminal.json(entries);
        if (o.csv === true) {
          // The Core is loaded by now (withCore): its export costs nothing more here.
          const { activityCsv } = await import('./core-exports');
          terminal.io.out.write(activityCsv(entries));
          return;
        }
        if (!entries.length) return terminal.print('No activity matches.');
        terminal.print(
          renderTable(
            entries,
            [
              { title: 'TIME', value: (e) => localDateTime(e.time, true) },
              { title: 'CONTROLLER', value: (e) => e.controllerName },
              { title: 'OUTLET', value: (e) => (e.outlet === null ? '' : String(e.outlet)), align: 'right' },
              { title: 'ACTION', value: (e) => activityActionText(e) },
              { title: 'DOOR', value: (e) => e.source },
              { title: 'WHO', value: (e) => e.who ?? '' },
              { title: 'RESULT', value: (e) => (e.error ? `${e.result}: ${e.error.message}` : e.result) },
            ],
            terminal.colors.bold,
          ),
        );
      });
    }),
  );
}

/** One entry of a JSON array written as it comes, as JSON.stringify(array, null, 2) writes it. */
function jsonElement(entry: ActivityEntry, index: number): string {
  const text = JSON.stringify(entry, null, 2).replace(/\n/g, '\n  ');
  return `${index === 0 ? '[\n' : ',\n'}  ${text}`;
}
