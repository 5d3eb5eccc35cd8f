/**
 * `controllers import FILE.csv`: the window's CSV import on the command line. The
 * Core reads the file's rows (name, address, user, tags, fingerprint) and adds the good ones with one
 * password per user, each saved with its secret bound to its own address, in the OS keychain only.
 * Passwords come from a hidden prompt (or standard input, one line per user) or --password-file, never
 * from the command line.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { BulkAddResult, CsvImportRow } from '../../src-preload/model';
import { errorSentence } from '../shared/errors';
import type { CommandContext, Runner } from './command-context';
import { EXIT_FAILED, EXIT_PARTIAL, exitCodeFor } from './exit-codes';
import { leaf } from './global-options';
import { ExitWith, UsageError, excerpt, type Terminal } from './io';
import { renderTable } from './table';

const MAX_FILE_BYTES = 1_000_000;

async function readText(file: string, what: string): Promise<string> {
  try {
    const buffer = await readFile(file);
    if (buffer.length > MAX_FILE_BYTES) throw new UsageError(`${what} ${excerpt(file)} is larger than 1 MB.`);
    return buffer.toString('utf8');
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(
      `Cannot read ${what} ${excerpt(file)}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}.`,
    );
  }
}

/**
 * One password per user: a --password-file of one line serves every user; with several lines each is
 * `user:password` (user names have no colons). Without the file, one prompt per user.
 */
async function passwordsFor(
  users: readonly string[],
  file: string | undefined,
  terminal: Terminal,
): Promise<Record<string, string>> {
  const passwords: Record<string, string> = {};
  if (file === undefined) {
    for (const user of users) passwords[user] = await terminal.readLine(`the password of "${user}"`);
  } else {
    const lines = (await readText(file, 'the password file')).split(/\r?\n/).filter((line) => line !== '');
    if (lines.length === 1) for (const user of users) passwords[user] = lines[0]!;
    else {
      for (const line of lines) {
        const colon = line.indexOf(':');
        if (colon > 0) passwords[line.slice(0, colon)] = line.slice(colon + 1);
      }
    }
  }
  const missing = users.filter((user) => !passwords[user]);
  if (missing.length) {
    throw new UsageError(
      `No password for ${missing.map((u) => `"${u}"`).join(', ')}: give one line "user:password" per user in --password-file, or one line for all.`,
    );
  }
  return passwords;
}

interface Outcome {
  row: CsvImportRow;
  result: string;
  ok: boolean;
  code: string | null;
}

function outcomes(rows: readonly CsvImportRow[], results: readonly BulkAddResult[]): Outcome[] {
  let next = 0;
  return rows.map((row) => {
    if (row.problems.length) return { row, result: row.problems.join(' '), ok: false, code: 'BAD_INPUT' };
    const result = results[next++];
    if (result?.added) return { row, result: `added as "${result.added.name}"`, ok: true, code: null };
    const error = result?.error;
    const fingerprint = error?.code === 'TLS_UNTRUSTED' ? error.detail?.fingerprint : undefined;
    const words =
      typeof fingerprint === 'string'
        ? `certificate ${fingerprint} not yet trusted: compare it with the controller's web page, then put it in the row's fingerprint column`
        : error
          ? errorSentence(error)
          : 'not added';
    return { row, result: words, ok: false, code: error?.code ?? null };
  });
}

async function importFile(context: CommandContext, file: string): Promise<void> {
  const { options, terminal } = context;
  if (options.password !== undefined || options.token !== undefined) {
    throw new UsageError(
      'controllers import never takes a password on the command line: give --password-file FILE, or type it when asked.',
    );
  }
  const text = await readText(file, 'the file');
  const passwordFile = context.local.passwordFile as string | undefined;
  const user = options.user ?? terminal.io.env.PLUGBOARD_USER ?? 'admin';
  const { withCore } = await import('./core-access');
  await withCore(context, async (core) => {
    const preview = await core.call('controllers/importPreview', { text });
    const ready = preview.rows.filter((row) => row.problems.length === 0);
    let results: BulkAddResult[] = [];
    if (ready.length && context.local.dryRun !== true) {
      const users = [...new Set([user, ...preview.users])].filter((u) =>
        ready.some((r) => (r.user || user) === u),
      );
      const passwords = await passwordsFor(users, passwordFile, terminal);
      const kind = context.local.basic === true ? ('basic' as const) : ('digest' as const);
      results = await core.call('controllers/addMany', {
        units: ready.map((row) => ({
          url: row.url!,
          ...(row.name ? { name: row.name } : {}),
          ...(row.user && row.user !== user ? { user: row.user } : {}),
          ...(row.tags.length ? { tags: row.tags } : {}),
          ...(row.fingerprint ? { fingerprint: row.fingerprint } : {}),
        })),
        auth: { kind, user, password: passwords[user] ?? '' },
        passwords,
      });
    }
    const dry = context.local.dryRun === true;
    const all = outcomes(preview.rows, results).map((o) =>
      dry && !o.row.problems.length ? { ...o, result: 'ready' } : o,
    );
    const status = (o: Outcome): string =>
      o.row.problems.length ? 'invalid' : dry ? 'ready' : o.ok ? 'added' : 'refused';
    if (context.json) {
      terminal.json(
        all.map((o) => ({
          line: o.row.line,
          name: o.row.name,
          address: o.row.address,
          status: status(o),
          result: o.result,
          code: o.code,
        })),
      );
    } else {
      terminal.print(
        renderTable(
          all,
          [
            { title: 'LINE', value: (o) => String(o.row.line) },
            { title: 'NAME', value: (o) => o.row.name },
            { title: 'ADDRESS', value: (o) => o.row.address },
            { title: 'RESULT', value: (o) => o.result },
          ],
          terminal.colors.bold,
        ),
      );
      if (!dry) terminal.print(`${all.filter((o) => o.ok).length} of ${all.length} controllers added.`);
    }
    if (dry) {
      if (ready.length < all.length) throw new ExitWith(EXIT_FAILED);
      return;
    }
    const failed = all.filter((o) => !o.ok);
    if (!failed.length) return;
    const codes = new Set(failed.map((o) => o.code));
    if (failed.length < all.length) throw new ExitWith(EXIT_PARTIAL);
    throw new ExitWith(codes.size === 1 ? exitCodeFor([...codes][0] ?? '') : EXIT_FAILED);
  });
}

/** Adds `import` under the `controllers` command (registered by commands-controllers.ts). */
export function registerImportCommand(program: Command, run: Runner): void {
  const controllers = program.commands.find((command) => command.name() === 'controllers');
  if (!controllers) throw new Error('register the controllers commands first');
  leaf(
    controllers
      .command('import')
      .argument(
        '<file>',
        'a CSV file: a header row (address, and optionally name, user, tags, fingerprint), then one controller a row',
      )
      .option(
        '--password-file <file>',
        'read the password from this file: one line for every user, or "user:password" lines',
      )
      .option(
        '--basic',
        'log in with HTTP Basic (needs "Allow legacy plaintext login methods" on the controllers)',
      )
      .option('--dry-run', 'only read the file and show each row and its problems; add nothing')
      .description(
        'add the controllers a CSV file lists, with one password per user (asked once, never from the file); tags in a cell are separated by ";"',
      ),
  ).action(run(async (context, file) => importFile(context, String(file))));
}
