/**
 * `outlet-config` (an outlet's cycle delay and critical flag) and `relay` (the relay's cycle delay and
 * on-sequence delay). Without options each shows the settings; with options it changes them (administrators
 * only) and shows what the controller holds afterwards. A bad value is a usage error (exit 2): nothing is sent.
 */
import type { Command } from 'commander';
import type { ControllerState, OutletReading } from '../../src-preload/model';
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
import type { CommandContext, Runner } from './command-context';
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

/**
 * A relay time in words; null says why it is not known: the controller lets only administrators read
 * its relay settings, or it did not give them.
 */
function secondsWords(value: number | null, state: ControllerState): string {
  if (value !== null) return `${value} s`;
  if (state.capabilities?.isAdmin === false) return 'unknown (only an administrator may read it)';
  return `unknown (${state.identity?.firmware ? `firmware ${state.identity.firmware}` : 'the controller'} did not report it)`;
}

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
      const { withAdminState } = await import('./admin-reads');
      await withAdminState(context, async (core, controller, state) => {
        const number = oneOutlet(spec, state.outlets, controller.name);
        if (changed)
          await core.call('outlets/configure', { controllerId: controller.id, outlet: number, ...settings });
        const outlet = { ...state.outlets.find((o) => o.number === number)!, ...settings };
        printOutlet(context, controller.name, outlet, state, changed);
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
      const { withAdminState } = await import('./admin-reads');
      await withAdminState(context, async (core, controller, before) => {
        if (changed) await core.call('system/setRelayTiming', { controllerId: controller.id, ...timing });
        // What the controller holds now: the Core reads it again after a change.
        const { states } = await core.call('app/snapshot', {});
        const state = states.find((x) => x.id === controller.id) ?? before;
        const now = state.relayTiming;
        if (context.json)
          return context.terminal.json({ cycle_delay: now.cycleDelay, sequence_delay: now.sequenceDelay });
        if (changed) context.terminal.print(`Changed the relay timing of ${controller.name}.`);
        context.terminal.print(
          renderPairs(
            [
              ['Cycle delay', secondsWords(now.cycleDelay, state)],
              ['Sequence delay', secondsWords(now.sequenceDelay, state)],
            ],
            context.terminal.colors.dim,
          ),
        );
      });
    }),
  );
}

function printOutlet(
  context: CommandContext,
  controller: string,
  outlet: OutletReading,
  state: ControllerState,
  changed: boolean,
): void {
  const number = outlet.number;
  if (context.json) {
    context.terminal.json({
      number,
      name: outlet.name,
      cycle_delay: outlet.cycleDelay,
      critical: outlet.critical,
    });
    return;
  }
  const delay =
    outlet.cycleDelay === null
      ? `the relay's (${secondsWords(state.relayTiming.cycleDelay, state)})`
      : `${outlet.cycleDelay} s`;
  if (changed) context.terminal.print(`Changed the settings of outlet ${number} on ${controller}.`);
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
}
