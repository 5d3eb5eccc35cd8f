/** `info`, `outlets`, `on`, `off`, `cycle`, `switch`. */
import type { Command } from 'commander';
import type { OutletActionResult, OutletReading } from '../../src-preload/model';
import { errorSentence } from '../shared/errors';
import { combinedExitCode, exitCodeFor } from './exit-codes';
import { ExitWith } from './io';
import { parseOutletSpec, parseSwitchPairs, resolveOutletSpec } from './outlet-spec';
import type { CommandContext, Runner } from './command-context';
import { withTarget } from './core-route';
import { leaf } from './global-options';
import { runFleet } from './commands-fleet';
import { Option } from 'commander';
import { renderPairs, renderTable } from './table';

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
        ok.length,
      ),
    );
  }
}

function outletTable(context: CommandContext, outlets: readonly OutletReading[]): string {
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

/** `switch`: the Core's outlets/switch (names looked up in its outlets). */
async function switchOutlets(
  context: CommandContext,
  wanted: { target: string; on: boolean }[],
): Promise<void> {
  const targets = wanted.map(({ target, on }) => ({ spec: parseOutletSpec(target), on }));
  const { readState } = await import('./state-watch');
  await withTarget(context, async (core, saved) => {
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

function printOutlets(context: CommandContext, outlets: readonly OutletReading[]): void {
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
  '"Bench A:3", "Bench A:1-4", "Bench A:Router" (outlet name), "Bench A:all", a group name; several at once. With --controller NAME or --url: outlet number (3), list or range (1,4,7 or 1-4), all, or an outlet name';

/** --wait, --timeout, --yes: on every path (saved controllers, groups, a unit given by --url). */
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
      const { readState } = await import('./state-watch');
      await withTarget(context, async (core, controller) => {
        // The identity is read after the outlets: waited for.
        const state = await readState(core, controller.id, controller.name, (s) => s.identity !== null);
        const identity = state.identity!;
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
          ['Address', controller.url],
        ];
        context.terminal.print(renderPairs(pairs, context.terminal.colors.dim));
      });
    }),
  );

  leaf(program.command('outlets').description('every outlet with its states')).action(
    run(async (context) => {
      const { readState } = await import('./state-watch');
      await withTarget(context, async (core, controller) =>
        printOutlets(context, (await readState(core, controller.id, controller.name)).outlets),
      );
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
    ).action(run(async (context, words) => runFleet(context, on ? 'on' : 'off', words as string[])));
  }

  leaf(
    fleetOptions(
      program
        .command('cycle')
        .argument('<targets...>', `${TARGETS_HELP}; one outlet per controller`)
        .description('power-cycle outlets (off, wait the cycle delay, on)'),
    ),
  ).action(run(async (context, words) => runFleet(context, 'cycle', words as string[])));

  leaf(
    program
      .command('switch')
      .argument('<changes...>', 'OUTLET=on or OUTLET=off, e.g. 1=on 2=off')
      .option('--yes', 'confirm switching off critical outlets')
      .description('switch several outlets as simultaneously as the firmware allows (transient states)'),
  ).action(run(async (context, pairs) => switchOutlets(context, parseSwitchPairs(pairs as string[]))));
}
