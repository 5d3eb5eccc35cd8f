/** The contract's meter calls: one meter's history, all of them as CSV, and the meters outside their limits. */
import type { Handlers } from '../../../src-preload/contract';
import { PlugboardError } from '../../shared/errors';
import { startedSession, type CoreContext } from '../flows/core-context';
import { meterCsv, meterCsvFilename } from '../meters/meter-csv';
import { currentBreaches } from '../meters/meter-limits-wiring';

type MeterHandlers = Pick<Handlers, 'meters/history' | 'meters/exportCsv' | 'meters/breaches'>;

export function meterHandlers(ctx: CoreContext): MeterHandlers {
  return {
    'meters/history': async ({ controllerId, key }) => {
      const s = await startedSession(ctx, controllerId);
      const history = s.history.history(key);
      if (!history) {
        throw new PlugboardError(
          'NOT_FOUND',
          s.history.keys().length
            ? `${s.summary.name} has no meter "${key.slice(0, 80)}"; its meters are ${s.history.keys().join(', ')}.`
            : `${s.summary.name} has no meter history: it has no meters, or none were read yet.`,
        );
      }
      return history;
    },
    'meters/exportCsv': async ({ controllerId }) => {
      const s = await startedSession(ctx, controllerId);
      if (s.history.keys().length === 0) {
        throw new PlugboardError(
          'NOT_FOUND',
          `${s.summary.name} has no meter history to export: it has no meters, or none were read yet.`,
        );
      }
      const unit = ctx.settings.get().temperatureUnit;
      return {
        filename: meterCsvFilename(s.summary.name, ctx.clock.now()),
        csv: meterCsv(s.history, unit),
      };
    },
    'meters/breaches': async () => currentBreaches(ctx),
  };
}
