/**
 * `outlet-config` (an outlet's cycle delay and critical flag) and `relay` (the relay's cycle delay and
 * on-sequence delay). Without options each shows the settings; with options it changes them (administrators
 * only) and shows what the controller holds afterwards. A bad value is a usage error (exit 2): nothing is sent.
 */
import type { Command } from 'commander';
import { PlugboardError, isPlugboardError } from '../shared/errors';
import {
  CYCLE_DELAY_RANGE,
  SEQUENCE_DELAY_RANGE,
  checkSeconds,
  type OutletSettings,
  type RelayTimingChange,
} from '../dli/api-settings';
import type { DliClient } from '../dli/client';
import { UsageError } from './io';
import { parseOutletSpec, resolveOutletSpec } from './outlet-spec';
import { savedThroughCore, withController, type CommandContext, type Runner } from './command-context';
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

async function oneOutlet(client: DliClient, text: string): Promise<number> {
  const spec = parseOutletSpec(text);
  const outlets = await resolveOutletSpec(
    spec,
    spec.kind === 'names' ? await client.outlets.list() : [],
    client.controller,
  );
  if (outlets === 'all' || outlets.length !== 1)
    throw new PlugboardError('BAD_INPUT', 'outlet-config takes one outlet; configure them one at a time.');
  return outlets[0]!;
}

const secondsWords = (value: number | null): string => (value === null ? 'unknown' : `${value} s`);

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
      if (Object.keys(settings).length > 0 && savedThroughCore(context)) {
        return configureThroughCore(context, (words as string[]).join(' '), settings);
      }
      await withController(context, async ({ client }) => {
        const outlet = await oneOutlet(client, (words as string[]).join(' '));
        const changed = Object.keys(settings).length > 0;
        if (changed) await client.settings.configureOutlet(outlet, settings);
        await printOutlet(context, client, outlet, changed);
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
      if (Object.keys(timing).length > 0 && savedThroughCore(context)) {
        const { withSavedController } = await import('./core-access');
        return withSavedController(context, async (core, saved) => {
          await core.call('system/setRelayTiming', { controllerId: saved.id, ...timing });
          if (context.json) return context.terminal.json({ changed: true, ...relayJson(timing) });
          context.terminal.print(`Changed the relay timing of ${saved.name}.`);
        });
      }
      await withController(context, async ({ client }) => {
        const changed = Object.keys(timing).length > 0;
        if (changed) await client.settings.setRelayTiming(timing);
        const now = await client.system.relayTiming();
        if (context.json)
          return context.terminal.json({ cycle_delay: now.cycleDelay, sequence_delay: now.sequenceDelay });
        if (changed) context.terminal.print(`Changed the relay timing of ${client.controller}.`);
        context.terminal.print(
          renderPairs(
            [
              ['Cycle delay', secondsWords(now.cycleDelay)],
              ['Sequence delay', secondsWords(now.sequenceDelay)],
            ],
            context.terminal.colors.dim,
          ),
        );
      });
    }),
  );
}

function relayJson(timing: RelayTimingChange): Record<string, number> {
  return {
    ...(timing.cycleDelay === undefined ? {} : { cycle_delay: timing.cycleDelay }),
    ...(timing.sequenceDelay === undefined ? {} : { sequence_delay: timing.sequenceDelay }),
  };
}

/** Change a saved controller's outlet settings through the Core (logged as the CLI's), then show them. */
async function configureThroughCore(context: CommandContext, text: string, settings: OutletSettings) {
  const { withSavedController } = await import('./core-access');
  const { readState } = await import('./state-watch');
  await withSavedController(context, async (core, saved) => {
    const state = await readState(core, saved.id, saved.name);
    const outlets = resolveOutletSpec(parseOutletSpec(text), state.outlets, saved.name);
    if (outlets === 'all' || outlets.length !== 1)
      throw new UsageError('outlet-config takes one outlet; configure them one at a time.');
    const number = outlets[0]!;
    await core.call('outlets/configure', { controllerId: saved.id, outlet: number, ...settings });
    const name = state.outlets.find((o) => o.number === number)?.name ?? '';
    const after = { ...state.outlets.find((o) => o.number === number), ...settings };
    if (context.json) {
      return context.terminal.json({
        number,
        name,
        cycle_delay: after.cycleDelay ?? null,
        critical: after.critical ?? false,
      });
    }
    context.terminal.print(`Changed the settings of outlet ${number} on ${saved.name}.`);
  });
}

async function printOutlet(
  context: CommandContext,
  client: DliClient,
  number: number,
  changed: boolean,
): Promise<void> {
  const outlet = (await client.outlets.list()).find((o) => o.number === number);
  if (!outlet)
    throw new PlugboardError('DEVICE_ERROR', `${client.controller} did not list outlet ${number}.`);
  if (context.json) {
    context.terminal.json({
      number,
      name: outlet.name,
      cycle_delay: outlet.cycleDelay,
      critical: outlet.critical,
    });
    return;
  }
  const relay = outlet.cycleDelay === null ? await client.system.relayTiming() : null;
  const delay =
    outlet.cycleDelay === null
      ? `the relay's (${secondsWords(relay!.cycleDelay)})`
      : `${outlet.cycleDelay} s`;
  if (changed) context.terminal.print(`Changed the settings of outlet ${number} on ${client.controller}.`);
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
