/** `meters`: every meter of the controller, with temperatures in °C or °F. */
import type { Command } from 'commander';
import { celsiusToFahrenheit, meterReadings } from '../dli/meters';
import type { MeterReading } from '../dli/types';
import type { Runner } from './command-context';
import type { CoreAccess } from './core-link';
import { withTarget } from './core-route';
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

/** Every meter of the unit, those it marks internal included, read through the Core. */
async function allMeters(core: CoreAccess, controllerId: string): Promise<MeterReading[]> {
  const read = await core.call('system/tree', { controllerId, path: 'meter/values', depth: 8 });
  const values = read.value;
  if (values === null || typeof values !== 'object' || Array.isArray(values)) return [];
  return meterReadings(values as Record<string, unknown>, { internal: true });
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
      const { readState } = await import('./state-watch');
      await withTarget(context, async (core, controller) => {
        const state = await readState(core, controller.id, controller.name);
        // The Core keeps the meters a person sees; --all reads the unit's whole list through it.
        const readings =
          context.options.all === true && state.meters !== null
            ? await allMeters(core, controller.id)
            : state.meters;
        const rows = forOutput(readings ?? [], context.options.fahrenheit === true);
        if (context.json) return context.terminal.json(rows);
        if (readings === null) return context.terminal.print(`${controller.name} has no meters.`);
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
