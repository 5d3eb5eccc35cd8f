/** `meters`: every meter of the controller, with temperatures in °C or °F. */
import type { Command } from 'commander';
import { celsiusToFahrenheit } from '../dli/meters';
import type { MeterReading } from '../dli/types';
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

export function registerMeterCommands(program: Command, run: Runner): void {
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
}
