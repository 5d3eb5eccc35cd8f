/**
 * `reservations` (list), `reserve <target> --for <duration> --reason <text>`, `release <id>` and
 * `release <id> --break --reason <text>`, through the Core as this OS user.
 */
import type { Command } from 'commander';
import { parseInput, type Handlers } from '../../src-preload/contract';
import type { Reservation, ReservationTarget } from '../../src-preload/model';
import { localDateTime } from '../../src-preload/words';
import type { CommandContext, Runner } from './command-context';
import { UsageError, excerpt } from './io';
import { renderTable } from './table';

const UNIT_MS: Record<string, number> = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/** "90m", "2h", "1h30m", "3d" → milliseconds. */
export function parseDuration(text: string): number {
  const typed = text.trim().toLowerCase();
  if (!/^(\d+[smhd])+$/.test(typed)) {
    throw new UsageError(
      `--for "${excerpt(text)}" is not a duration: write it like 30m, 2h, 1h30m or 3d (s, m, h, d).`,
    );
  }
  let total = 0;
  for (const [, amount, unit] of typed.matchAll(/(\d+)([smhd])/g)) total += Number(amount) * UNIT_MS[unit!]!;
  return total;
}

const same = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** A saved controller (by name or id), "controller:outlet" (number or outlet name), or a group's name. */
async function resolveTarget(handlers: Handlers, text: string): Promise<ReservationTarget> {
  const snapshot = await handlers['app/snapshot']({});
  const byName = (name: string) => snapshot.controllers.find((c) => same(c.name, name) || c.id === name);
  const whole = byName(text);
  if (whole) return { kind: 'controller', controllerId: whole.id };
  const colon = text.lastIndexOf(':');
  if (colon > 0) {
    const controller = byName(text.slice(0, colon));
    const outletText = text.slice(colon + 1).trim();
    if (controller) {
      if (/^\d{1,2}$/.test(outletText) && Number(outletText) >= 1)
        return { kind: 'outlet', controllerId: controller.id, outlet: Number(outletText) };
      const outlets = snapshot.states.find((s) => s.id === controller.id)?.outlets ?? [];
      const named = outlets.find((o) => same(o.name, outletText));
      if (named) return { kind: 'outlet', controllerId: controller.id, outlet: named.number };
      throw new UsageError(
        `${controller.name} has no outlet "${excerpt(outletText)}": give its number (1, 2, …) or its name.`,
      );
    }
  }
  const group = snapshot.groups.find((g) => same(g.name, text));
  if (group) return { kind: 'group', groupId: group.id };
  throw new UsageError(
    `"${excerpt(text)}" is neither a saved controller, "controller:outlet", nor a group (see: plugboard controllers list).`,
  );
}

/**
 * "Bench A:3", "Bench A", "group Rack 7: Bench A:1, Bench B:2" — as the person would type it back; a
 * group with the outlets it covers, which are those it had when reserved.
 */
async function targetWords(handlers: Handlers): Promise<(r: Reservation) => string> {
  const snapshot = await handlers['app/snapshot']({});
  const controller = (id: string) => snapshot.controllers.find((c) => c.id === id)?.name ?? id;
  const cell = (c: Reservation['covers'][number]) =>
    c.outlet === null ? controller(c.controllerId) : `${controller(c.controllerId)}:${c.outlet}`;
  return ({ target, covers }) => {
    if (target.kind === 'group') {
      const group = snapshot.groups.find((g) => g.id === target.groupId);
      return `${group ? `group ${group.name}` : 'a removed group'}: ${covers.map(cell).join(', ')}`;
    }
    if (target.kind === 'controller') return controller(target.controllerId);
    return `${controller(target.controllerId)}:${target.outlet}`;
  };
}

const when = (ms: number): string => localDateTime(ms);

async function printList(context: CommandContext, handlers: Handlers): Promise<void> {
  const list = await handlers['reservations/list']({});
  if (context.json) return context.terminal.json(list);
  if (list.length === 0) return context.terminal.print('No reservations.');
  const words = await targetWords(handlers);
  context.terminal.print(
    renderTable<Reservation>(
      list,
      [
        { title: 'ID', value: (r) => r.id },
        { title: 'TARGET', value: (r) => words(r) },
        { title: 'HOLDER', value: (r) => r.holder },
        { title: 'UNTIL', value: (r) => when(r.expiresAt) },
        { title: 'REASON', value: (r) => r.reason },
      ],
      context.terminal.colors.bold,
    ),
  );
}

function reasonOf(context: CommandContext, what: string): string {
  const reason = context.local.reason;
  if (typeof reason !== 'string' || reason.trim() === '')
    throw new UsageError(`${what} needs --reason <text>.`);
  return reason;
}

export function registerReservationCommands(program: Command, run: Runner): void {
  program
    .command('reservations')
    .option('--json', 'machine-readable output on stdout')
    .description('every current reservation: who holds what, until when, and why')
    .action(
      run(async (context) => {
        const { withCore } = await import('./core-access');
        await withCore(context, ({ handlers }) => printList(context, handlers));
      }),
    );

  program
    .command('reserve')
    .argument('<target>', 'a saved controller, "controller:outlet" (number or name), or a group')
    .requiredOption('--for <duration>', 'how long: 30m, 2h, 1h30m, 3d')
    .requiredOption('--reason <text>', 'why, for whoever is refused meanwhile')
    .option('--json', 'machine-readable output on stdout')
    .description('reserve an outlet, a controller or a group: only you may switch it until it ends')
    .action(
      run(async (context, text) => {
        const durationMs = parseDuration(String(context.local.for));
        const reason = reasonOf(context, 'reserve');
        const { withCore } = await import('./core-access');
        await withCore(context, async ({ handlers }) => {
          const target = await resolveTarget(handlers, String(text));
          const input = parseInput('reservations/take', { target, reason, durationMs });
          if (!input.ok) throw new UsageError(input.message.replace('durationMs', '--for'));
          const taken = await handlers['reservations/take'](input.value);
          if (context.json) return context.terminal.json(taken);
          const words = await targetWords(handlers);
          context.terminal.print(
            `Reserved ${words(taken)} until ${when(taken.expiresAt)} (${taken.id}). Release it with: plugboard release ${taken.id}`,
          );
        });
      }),
    );

  program
    .command('release')
    .argument('<id>', 'the reservation (see: plugboard reservations)')
    .option('--break', "end someone else's reservation (needs --reason; logged as yours)")
    .option('--reason <text>', 'why you break it')
    .description('end your reservation, or break someone else’s with --break --reason')
    .action(
      run(async (context, id) => {
        const breaking = context.local.break === true;
        const reason = breaking ? reasonOf(context, 'release --break') : null;
        if (!breaking && context.local.reason !== undefined)
          throw new UsageError('--reason goes with --break: your own reservation is released without one.');
        const { withCore } = await import('./core-access');
        await withCore(context, async ({ handlers }) => {
          if (reason === null) await handlers['reservations/release']({ id: String(id) });
          else await handlers['reservations/break']({ id: String(id), reason });
          context.terminal.print(`${breaking ? 'Broke' : 'Released'} reservation ${String(id)}.`);
        });
      }),
    );
}
