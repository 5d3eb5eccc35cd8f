/** `meters`, `scripts`, `script start`, `script stop`. */
import type { Command } from 'commander';
import { celsiusToFahrenheit } from '../dli/meters';
import type { MeterReading } from '../dli/types';
import { parseScriptArgs } from './outlet-spec';
import { withController, type Runner } from './command-context';
import { leaf } from './global-options';
import { renderTable } from './table';

const DECIMALS: Record<string, number> = { V: 1, A: 2, kWh: 3, W: 1, '°C': 1, '°F': 1, '%': 1 };

/** Readings for output; with --fahrenheit temperatures are converted (same formula as the controller's). */
function forOutput(
  readings: readonly MeterReading[],
  fahrenheit: boolean,
): { key: string; name: string; value: number | null; unit: string }[] {
  return readings.map((r) => {
    const toF = fahrenheit && r.unit === '°C';
    const value = toF && r.value !== null ? celsiusToFahrenheit(r.value) : r.value;
    const extra = { ...(r.internal ? { internal: true } : {}), ...(r.fields ? { fields: r.fields } : {}) };
    return { key: r.key, name: r.name, value, unit: toF ? '°F' : r.unit, ...extra };
  });
}

export function registerScriptCommands(program: Command, run: Runner): void {
  leaf(
    program
      .command('meters')
      .option('--fahrenheit', 'temperatures in °F instead of °C')
      .option('--all', 'also meters the controller marks internal')
      .description('every meter: voltage, current, energy, temperature, humidity'),
  ).action(
    run(async (context) => {
      await withController(context, async ({ client }) => {
        const readings = await client.meters({ internal: context.options.all === true });
        const rows = forOutput(readings ?? [], context.options.fahrenheit === true);
        if (context.json) return context.terminal.json(rows);
        if (readings === null) return context.terminal.print(`${client.controller} has no meters.`);
        const c = context.terminal.colors;
        context.terminal.print(
          renderTable(
            rows,
            [
              { title: 'NAME', value: (r) => r.name },
              {
                title: 'VALUE',
                value: (r) => (r.value === null ? 'no reading' : r.value.toFixed(DECIMALS[r.unit] ?? 2)),
                align: 'right',
              },
              { title: 'UNIT', value: (r) => r.unit },
              { title: 'KEY', value: (r) => r.key, paint: (t) => c.dim(t) },
            ],
            c.bold,
          ),
        );
      });
    }),
  );

  leaf(
    program.command('scripts').description('user functions and running script threads (admin only)'),
  ).action(
    run(async (context) => {
      await withController(context, async ({ client }) => {
        const scripts = await client.scripts.list();
        if (context.json) return context.terminal.json(scripts);
        const c = context.terminal.colors;
        const lines = [
          c.bold('Functions'),
          ...(scripts.functions.length ? scripts.functions.map((f) => `  ${f}`) : ['  (none)']),
        ];
        lines.push('', c.bold('Running threads'));
        if (scripts.threads.length) {
          const table = renderTable(
            scripts.threads,
            [
              { title: 'ID', value: (t) => t.id, align: 'right' },
              { title: 'LABEL', value: (t) => t.label },
            ],
            (s) => s,
          );
          lines.push(...table.split('\n').map((line) => `  ${line}`));
        } else {
          lines.push('  (none)');
        }
        context.terminal.print(lines.join('\n'));
      });
    }),
  );

  const script = program.command('script').description('start or stop scripts (admin only)');
  leaf(
    script
      .command('start')
      .argument('<function>', 'user function name')
      .option('--args <values>', 'arguments, comma-separated: numbers, true/false, or text (e.g. 5,10)')
      .description('start a user function; arguments are passed as values, never as code'),
  ).action(
    run(async (context, functionName) => {
      const args = parseScriptArgs(context.options.args as string | undefined);
      await withController(context, async ({ client }) => {
        const { threadId } = await client.scripts.start(String(functionName), args);
        if (context.json) return context.terminal.json({ thread_id: threadId });
        context.terminal.print(
          `Started ${String(functionName)} on ${client.controller} as thread ${threadId}.`,
        );
      });
    }),
  );
  leaf(
    script
      .command('stop')
      .argument('<thread>', 'thread id (see: scripts), or all')
      .description('stop one running script thread, or all of them'),
  ).action(
    run(async (context, thread) => {
      const id = String(thread);
      await withController(context, async ({ client }) => {
        await client.scripts.stop(id === 'all' ? 'all' : [id]);
        if (context.json) return context.terminal.json({ stopped: id });
        context.terminal.print(
          id === 'all'
            ? `Stopped all scripts on ${client.controller}.`
            : `Stopped thread ${id} on ${client.controller}.`,
        );
      });
    }),
  );
}
