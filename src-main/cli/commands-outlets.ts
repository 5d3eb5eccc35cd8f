/** `info`, `outlets`, `on`, `off`, `cycle`, `switch`. */
import type { Command } from 'commander';
import type { OutletActionResult } from '../../src-preload/model';
import { PlugboardError, errorSentence } from '../shared/errors';
import type { DliClient } from '../dli/client';
import type { Outlet } from '../dli/types';
import { combinedExitCode, exitCodeFor } from './exit-codes';
import { ExitWith } from './io';
import { parseOutletSpec, parseSwitchPairs, resolveOutletSpec } from './outlet-spec';
import { savedThroughCore, withController, type CommandContext, type Runner } from './command-context';
import { routeSavedToCore, routeToCore } from './core-route';
import { leaf } from './global-options';
import { checkDirectOptions, runFleet, savedControllerState } from './commands-fleet';
import { Option } from 'commander';
import { renderPairs, renderTable } from './table';

async function outletNumbers(client: DliClient, text: string): Promise<number[] | 'all'> {
  const spec = parseOutletSpec(text);
  if (spec.kind !== 'names') return resolveOutletSpec(spec, [], client.controller);
  return resolveOutletSpec(spec, await client.outlets.list(), client.controller);
}

function listWords(numbers: readonly number[]): string {
  return numbers.length === 1 ? `outlet ${numbers[0]}` : `outlets ${numbers.join(', ')}`;
}

/** Print an outlet action's result; failures go to stderr, one line each, and set the exit code (exit-codes.ts). */
function reportAction(
  context: CommandContext,
  result: OutletActionResult,
  done: (ok: number[]) => string,
): void {
  const { terminal } = context;
  if (context.json) terminal.json(result);
  const failed = new Set(result.failed.map((f) => f.outlet));
  const ok = result.requested.filter((n) => !failed.has(n));
  if (!context.json && ok.length) terminal.print(done(ok));
  for (const failure of result.failed) {
    terminal.warn(
      context.json
        ? JSON.stringify({ outlet: failure.outlet, error: failure.error })
        : `plugboard: ${errorSentence(failure.error)} [${failure.error.code}]`,
    );
  }
  if (result.failed.length) {
    throw new ExitWith(
      combinedExitCode(
        result.failed.map((f) => exitCodeFor(f.error.code)),
        0,
      ),
    );
  }
}

function outletTable(context: CommandContext, outlets: readonly Outlet[]): string {
  const c = context.terminal.colors;
  const onOff = (on: boolean): string => (on ? 'on' : 'off');
  const paintState = (text: string): string => (text.trim() === 'on' ? c.green(text) : c.dim(text));
  return renderTable(
    outlets,
    [
      { title: '#', value: (o) => String(o.number), align: 'right' },
      { title: 'NAME', value: (o) => o.name },
      { title: 'STATE', value: (o) => onOff(o.state), paint: paintState },
      { title: 'TRANSIENT', value: (o) => onOff(o.transientState), paint: paintState },
      { title: 'PHYSICAL', value: (o) => onOff(o.physicalState), paint: paintState },
      { title: 'LOCKED', value: (o) => (o.locked ? 'locked' : ''), paint: (t) => c.yellow(t) },
    ],
    c.bold,
  );
}

/** `switch` on a saved controller: the Core's outlets/switch (names looked up in its outlets). */
async function switchThroughCore(
  context: CommandContext,
  wanted: { target: string; on: boolean }[],
): Promise<void> {
  const { withSavedController } = await import('./core-access');
  const { readState } = await import('./state-watch');
  await withSavedController(context, async (core, saved) => {
    const targets = wanted.map(({ target, on }) => ({ spec: parseOutletSpec(target), on }));
    const list = targets.some(({ spec }) => spec.kind !== 'numbers')
      ? (await readState(core, saved.id, saved.name)).outlets
      : [];
    const changes = targets.flatMap(({ spec, on }) => {
      const numbers = resolveOutletSpec(spec, list, saved.name);
      if (numbers === 'all') return list.map((o) => ({ outlet: o.number, on }));
      return numbers.map((outlet) => ({ outlet, on }));
    });
    const confirmCritical = context.options.yes === true;
    const result = await core.call('outlets/switch', { controllerId: saved.id, changes, confirmCritical });
    reportAction(context, result, (ok) => {
      const pick = (state: boolean): number[] =>
        changes.filter((c) => c.on === state && ok.includes(c.outlet)).map((c) => c.outlet);
      const words = [pick(true), pick(false)].map((n, i) =>
        n.length ? `${n.join(', ')} ${i ? 'off' : 'on'}` : '',
      );
      return `Switched on ${saved.name}: ${words.filter(Boolean).join('; ')} (transient).`;
    });
  });
}

function printOutlets(context: CommandContext, outlets: readonly Outlet[]): void {
  if (!context.json) return context.terminal.print(outletTable(context, outlets));
  context.terminal.json(
    outlets.map((o) => ({
      number: o.number,
      name: o.name,
      state: o.state,
      transient_state: o.transientState,
      physical_state: o.physicalState,
      locked: o.locked,
    })),
  );
}

const TARGETS_HELP =
  '"Bench A:3", "Bench A:1-4", "Bench A:Router" (outlet name), "Bench A:all", a group name; several at once. With --controller NAME or --url: outlet number (3), list (1,4,7), all, or an outlet name';

/** --wait, --timeout, --yes: for saved controllers and groups (through the Core). */
function fleetOptions(command: Command): Command {
  return command
    .option('--wait', 'return only once the unit confirmed the physical state (exit 1 if not in time)')
    .option('--timeout <seconds>', 'how long --wait waits for the confirmation (default 60)')
    .addOption(new Option('--yes', 'confirm switching off or cycling critical outlets'))
    .addOption(new Option('--confirm-critical', 'the same as --yes').hideHelp().implies({ yes: true }));
}

export function registerOutletCommands(program: Command, run: Runner): void {
  leaf(program.command('info').description('model, serial number and firmware versions')).action(
    run(async (context) => {
      await withController(context, async ({ client }) => {
        const identity = await client.identity();
        if (context.json) {
          context.terminal.json({
            model: identity.model,
            serial: identity.serial,
            firmware: identity.firmware,
            relay_firmware: identity.relayFirmware,
          });
          return;
        }
        const pairs: [string, string][] = [
          ['Name', identity.controllerName],
          ['Model', identity.model],
          ['Serial', identity.serial],
          ['Firmware', identity.firmware],
          ['Relay firmware', identity.relayFirmware],
          ['Address', client.origin],
        ];
        context.terminal.print(renderPairs(pairs, context.terminal.colors.dim));
      });
    }),
  );

  leaf(program.command('outlets').description('every outlet with its states')).action(
    run(async (context) => {
      // A saved controller's outlets as the Core reads them; --url (or a one-off login): asked directly.
      if (savedThroughCore(context)) {
        return printOutlets(context, (await savedControllerState(context)).outlets);
      }
      await withController(context, async ({ client }) => printOutlets(context, await client.outlets.list()));
    }),
  );

  for (const on of [true, false]) {
    leaf(
      fleetOptions(
        program
          .command(on ? 'on' : 'off')
          .argument('<targets...>', TARGETS_HELP)
          .option(
            '--transient',
            'set the transient state (reverts after a reboot) instead of the persistent one',
          )
          .description(`switch outlets ${on ? 'on' : 'off'}`),
      ),
    ).action(
      run(async (context, words) => {
        const routed = await routeToCore(context);
        if (routed) return runFleet(routed, on ? 'on' : 'off', words as string[]);
        checkDirectOptions(context);
        await withController(context, async ({ client }) => {
          const outlets = await outletNumbers(client, (words as string[]).join(' '));
          const transient = context.options.transient === true;
          const result = await client.outlets.setState(outlets, on, { transient });
          const how = transient ? ', transient state (until the next reboot)' : '';
          reportAction(
            context,
            result,
            (ok) => `Switched ${listWords(ok)} ${on ? 'on' : 'off'} (${client.controller}${how}).`,
          );
        });
      }),
    );
  }

  leaf(
    fleetOptions(
      program
        .command('cycle')
        .argument('<targets...>', `${TARGETS_HELP}; one outlet per controller`)
        .description('power-cycle outlets (off, wait the cycle delay, on)'),
    ),
  ).action(
    run(async (context, words) => {
      const routed = await routeToCore(context);
      if (routed) return runFleet(routed, 'cycle', words as string[]);
      checkDirectOptions(context);
      await withController(context, async ({ client }) => {
        const outlets = await outletNumbers(client, (words as string[]).join(' '));
        if (outlets === 'all' || outlets.length !== 1) {
          throw new PlugboardError('BAD_INPUT', 'Cycle takes one outlet; cycle them one at a time.');
        }
        const outlet = outlets[0]!;
        const { cycled } = await client.outlets.cycle(outlet);
        if (context.json) return context.terminal.json({ outlet, cycled });
        context.terminal.print(
          cycled ? `Outlet ${outlet}: cycling.` : `Outlet ${outlet} is off, so it was not cycled.`,
        );
      });
    }),
  );

  leaf(
    program
      .command('switch')
      .argument('<changes...>', 'OUTLET=on or OUTLET=off, e.g. 1=on 2=off')
      .option('--yes', 'confirm switching off critical outlets')
      .description('switch several outlets as simultaneously as the firmware allows (transient states)'),
  ).action(
    run(async (context, pairs) => {
      const wanted = parseSwitchPairs(pairs as string[]);
      const routed = await routeSavedToCore(context);
      if (routed) return switchThroughCore(routed, wanted);
      await withController(context, async ({ client }) => {
        const targets = wanted.map(({ target, on }) => ({ spec: parseOutletSpec(target), on }));
        // Names are resolved, and `all` enumerated, from the outlet list; numbers need none.
        const list = targets.some(({ spec }) => spec.kind !== 'numbers') ? await client.outlets.list() : [];
        const changes = targets.flatMap(({ spec, on }) => {
          const numbers = resolveOutletSpec(spec, list, client.controller);
          if (numbers === 'all') return list.map((o) => ({ outlet: o.number, on }));
          return numbers.map((outlet) => ({ outlet, on }));
        });
        const result = await client.outlets.switch(changes);
        const how = result.simultaneous
          ? 'simultaneously'
          : 'with one request per state (firmware before 1.10.11)';
        reportAction(context, result, (ok) => {
          const pick = (state: boolean): number[] =>
            changes.filter((c) => c.on === state && ok.includes(c.outlet)).map((c) => c.outlet);
          const words = [pick(true), pick(false)].map((n, i) =>
            n.length ? `${n.join(', ')} ${i ? 'off' : 'on'}` : '',
          );
          return `Switched ${how} on ${client.controller}: ${words.filter(Boolean).join('; ')} (transient).`;
        });
      });
    }),
  );
}
