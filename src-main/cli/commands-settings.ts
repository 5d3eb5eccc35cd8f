/**
 * `outlet-config` (an outlet's cycle delay and critical flag) and `relay` (the relay's cycle delay and
 * on-sequence delay). Without options each shows the settings; with options it changes them (administrators
 * only) and shows what the controller holds afterwards. A bad value is a usage error (exit 2): nothing is sent.
 */
import type { Command } from 'commander';
import type { OutletReading } from '../../src-preload/model';
import { isPlugboardError } from '../shared/errors';
import {
  CYCLE_DELAY_RANGE,
  SEQUENCE_DELAY_RANGE,
  checkSeconds,
  type OutletSettings,
  type RelayTimingChange,
} from '../dli/api-settings';
import { UsageError } from './io';
import { parseOutletSpec, resolveOutletSpec, type OutletSpec } from './outlet-spec';
import type { Runner } from './command-context';
import type { CoreAccess } from './core-link';
import { withTarget } from './core-route';
import { leaf } from './global-options';
import { renderPairs } from './table';

/** Whole seconds within `range`, or a usage error naming the option. */
function seconds(text: string, option: string, range: { min: number; max: number }): number {
  const value = /^\s*-?\d+(\.\d*)?\s*$/.test(text) ? Number(text) : Number.NaN;
  try {
    return checkSeconds(value, option, range);
  } catch (error) {
    if (!isPlugboardError(error)) throw error;
    throw new UsageError(
      `${option} takes whole seconds from ${range.min} to ${range.max}; "${text}" is not.`,
    );
  }
}

function onOff(text: string, option: string): boolean {
  const word = text.trim().toLowerCase();
  if (word === 'on' || word === 'yes' || word === 'true') return true;
  if (word === 'off' || word === 'no' || word === 'false') return false;
  throw new UsageError(`${option} takes on or off; "${text}" is neither.`);
}

function oneOutlet(spec: OutletSpec, outlets: readonly OutletReading[], controller: string): number {
  const found = resolveOutletSpec(spec, outlets, controller);
  if (found === 'all' || found.length !== 1)
    throw new UsageError('outlet-config takes one outlet; configure them one at a time.');
  return found[0]!;
}

/** One of the relay's times as the unit gives it through the Core, or why it is not known. */
interface RelayTime {
  value: number | null;
  why: string | null;
}

/**
 * Read `relay/<field>` through the Core: a login the unit does not let read it, or a firmware without
 * it, is a reason to show, not a failure of the command.
 */
async function relayTime(
  core: CoreAccess,
  controllerId: string,
  field: 'cycle_delay' | 'sequence_delay',
): Promise<RelayTime> {
  try {
    const read = await core.call('system/tree', { controllerId, path: `relay/${field}`, depth: 1 });
    const value = typeof read.value === 'number' && read.value >= 0 ? read.value : null;
    return { value, why: value === null ? 'the controller gave no number for it' : null };
  } catch (error) {
    if (!isPlugboardError(error)) throw error;
    if (error.code === 'FORBIDDEN') return { value: null, why: 'this login may not read it' };
    if (error.detail?.status === 404) return { value: null, why: "this unit's firmware does not have it" };
    throw error;
  }
}

const secondsWords = (time: RelayTime): string =>
  time.value === null ? `unknown: ${time.why ?? 'not read'}` : `${time.value} s`;

export function registerSettingsCommands(program: Command, run: Runner): void {
  leaf(
    program
      .command('outlet-config')
      .argument('<outlet...>', 'outlet number or name')
      .option(
        '--cycle-delay <seconds>',
        'off-time when cycled, 1-3600 s; "relay" = use the relay cycle delay',
      )
      .option('--critical <on|off>', 'mark the outlet critical (the tray asks before switching it off)')
      .description("show or change an outlet's cycle delay and critical flag (changing: admin only)"),
  ).action(
    run(async (context, words) => {
      const local = context.local as { cycleDelay?: string; critical?: string };
      const settings: OutletSettings = {};
      if (local.cycleDelay !== undefined) {
        settings.cycleDelay = ['relay', 'default'].includes(local.cycleDelay.trim().toLowerCase())
          ? null
          : seconds(local.cycleDelay, '--cycle-delay', CYCLE_DELAY_RANGE);
      }
      if (local.critical !== undefined) settings.critical = onOff(local.critical, '--critical');
      const changed = Object.keys(settings).length > 0;
      const spec = parseOutletSpec((words as string[]).join(' '));
      const { readState } = await import('./state-watch');
      await withTarget(context, async (core, controller) => {
        const state = await readState(core, controller.id, controller.name);
        const number = oneOutlet(spec, state.outlets, controller.name);
        if (changed)
          await core.call('outlets/configure', { controllerId: controller.id, outlet: number, ...settings });
        const outlet = { ...state.outlets.find((o) => o.number === number)!, ...settings };
        if (context.json) {
          const { name, cycleDelay, critical } = outlet;
          return context.terminal.json({ number, name, cycle_delay: cycleDelay, critical });
        }
        const delay =
          outlet.cycleDelay === null
            ? `the relay's (${secondsWords(await relayTime(core, controller.id, 'cycle_delay'))})`
            : `${outlet.cycleDelay} s`;
        if (changed)
          context.terminal.print(`Changed the settings of outlet ${number} on ${controller.name}.`);
        context.terminal.print(
          renderPairs(
            [
              ['Outlet', `${number} (${outlet.name})`],
              ['Cycle delay', delay],
              ['Critical', outlet.critical ? 'yes' : 'no'],
            ],
            context.terminal.colors.dim,
          ),
        );
      });
    }),
  );

  leaf(
    program
      .command('relay')
      .option('--cycle-delay <seconds>', 'default off-time when an outlet is cycled, 1-3600 s')
      .option('--sequence-delay <seconds>', 'delay between outlets switched on together, 0-60 s')
      .description("show or change the relay's cycle delay and on-sequence delay (changing: admin only)"),
  ).action(
    run(async (context) => {
      const local = context.local as { cycleDelay?: string; sequenceDelay?: string };
      const timing: RelayTimingChange = {};
      if (local.cycleDelay !== undefined)
        timing.cycleDelay = seconds(local.cycleDelay, '--cycle-delay', CYCLE_DELAY_RANGE);
      if (local.sequenceDelay !== undefined)
        timing.sequenceDelay = seconds(local.sequenceDelay, '--sequence-delay', SEQUENCE_DELAY_RANGE);
      const changed = Object.keys(timing).length > 0;
      await withTarget(context, async (core, controller) => {
        if (changed) await core.call('system/setRelayTiming', { controllerId: controller.id, ...timing });
        // What the controller holds now, each time with the reason when it is not known.
        const cycle = await relayTime(core, controller.id, 'cycle_delay');
        const sequence = await relayTime(core, controller.id, 'sequence_delay');
        if (context.json)
          return context.terminal.json({ cycle_delay: cycle.value, sequence_delay: sequence.value });
        if (changed) context.terminal.print(`Changed the relay timing of ${controller.name}.`);
        context.terminal.print(
          renderPairs(
            [
              ['Cycle delay', secondsWords(cycle)],
              ['Sequence delay', secondsWords(sequence)],
            ],
            context.terminal.colors.dim,
          ),
        );
      });
    }),
  );
}
