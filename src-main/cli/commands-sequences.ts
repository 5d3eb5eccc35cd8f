/**
 * `sequence run <name> on|off [--yes]`: runs a sequence through the Core as this OS
 * user and prints its timeline as it goes, until it ends; Ctrl+C aborts it (steps done stay done).
 * `sequence abort <run-id>` and `sequences` (runs going on, and runs that stopped short).
 */
import type { Command } from 'commander';
import type { SequenceRun } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import type { CommandContext, Runner } from './command-context';
import type { CoreAccess } from './core-access';
import { UsageError, excerpt } from './io';
import { renderTable } from './table';

async function groupIdOf(core: CoreAccess, name: string): Promise<string> {
  const groups = await core.call('groups/list', {});
  const wanted = name.trim().toLowerCase();
  const group = groups.find((g) => g.name.toLowerCase() === wanted || g.id === name);
  if (!group) {
    const sequences = groups.filter((g) => g.kind === 'sequence').map((g) => `"${g.name}"`);
    throw new PlugboardError(
      'NOT_FOUND',
      `No group is called "${excerpt(name)}".${sequences.length ? ` Sequences: ${sequences.join(', ')}.` : ' Make one in the window’s group editor.'}`,
    );
  }
  return group.id;
}

/** Start the run and print each new timeline line until it ends; the run as it ended. */
async function follow(context: CommandContext, core: CoreAccess, id: string, action: 'on' | 'off') {
  let printed = 0;
  let runId: string | null = null;
  let last: SequenceRun | null = null;
  let done: (run: SequenceRun) => void = () => undefined;
  const ended = new Promise<SequenceRun>((resolve) => (done = resolve));
  const seen: SequenceRun[] = [];
  const show = (run: SequenceRun) => {
    last = run;
    if (!context.json) for (const entry of run.timeline.slice(printed)) context.terminal.print(entry.text);
    printed = Math.max(printed, run.timeline.length);
    if (run.status !== 'running') done(run);
  };
  const stop = core.subscribe((name, payload) => {
    if (name !== 'sequence/progress') return;
    const run = payload as SequenceRun;
    if (runId === null) seen.push(run);
    else if (run.runId === runId) show(run);
  });
  const abort = () => void (runId && core.call('sequences/abort', { runId }).catch(() => undefined));
  const signals = context.terminal.io.signals ?? process;
  signals.once('SIGINT', abort);
  try {
    ({ runId } = await core.call('sequences/run', {
      id,
      action,
      confirmCritical: context.local.yes === true,
    }));
    for (const run of seen.filter((r) => r.runId === runId)) show(run);
    return last && (last as SequenceRun).status !== 'running' ? last : await ended;
  } finally {
    signals.off('SIGINT', abort);
    stop();
  }
}

export function registerSequenceCommands(program: Command, run: Runner): void {
  const sequence = program
    .command('sequence')
    .description('run or abort a sequence (a group switched step by step)');
  sequence
    .command('run')
    .argument('<name>', 'the sequence (a group made a sequence in the window)')
    .argument('<action>', 'on (steps in order) or off (in reverse)')
    .option('--yes', 'switch critical outlets off without asking')
    .option('--json', 'machine-readable output on stdout: the run as it ended')
    .description('run a sequence and print its timeline until it ends (Ctrl+C aborts it)')
    .action(
      run(async (context, name, action) => {
        if (action !== 'on' && action !== 'off')
          throw new UsageError(`"${excerpt(String(action))}" is not on or off.`);
        const { withCore } = await import('./core-access');
        await withCore(context, async (core) => {
          const ended = await follow(context, core, await groupIdOf(core, String(name)), action);
          if (context.json) context.terminal.json(ended);
          if (ended.status !== 'done') {
            const failed = ended.steps.find((s) => s.status === 'failed')?.error;
            throw new PlugboardError(
              failed?.code ?? 'CANCELLED',
              ended.message ?? `Sequence ${ended.status}.`,
            );
          }
        });
      }),
    );
  sequence
    .command('abort')
    .argument('<run-id>', 'as `plugboard sequences` lists it')
    .description('stop a running sequence before its next step (steps done stay done)')
    .action(
      run(async (context, runId) => {
        const { withCore } = await import('./core-access');
        await withCore(context, async (core) => {
          const ended = await core.call('sequences/abort', { runId: String(runId) });
          context.terminal.print(ended.message ?? ended.status);
        });
      }),
    );
  program
    .command('sequences')
    .option('--json', 'machine-readable output on stdout')
    .description('sequence runs going on, and runs that stopped short (aborted, failed, quit or killed)')
    .action(
      run(async (context) => {
        const { withCore } = await import('./core-access');
        await withCore(context, async (core) => {
          const runs = await core.call('sequences/runs', {});
          if (context.json) return context.terminal.json(runs);
          if (runs.length === 0) return context.terminal.print('No sequence runs.');
          context.terminal.print(
            renderTable<SequenceRun>(
              runs,
              [
                { title: 'RUN', value: (r) => r.runId },
                { title: 'SEQUENCE', value: (r) => r.name },
                { title: 'ACTION', value: (r) => r.action },
                { title: 'STATUS', value: (r) => r.status },
                { title: 'STEP', value: (r) => `${r.current} of ${r.steps.length}` },
                { title: 'BY', value: (r) => r.who },
              ],
              context.terminal.colors.bold,
            ),
          );
        });
      }),
    );
}
