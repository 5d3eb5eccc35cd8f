/**
 * `autoping` (list), `autoping add|edit|enable|disable|delete`: AutoPing items, through the Core (an
 * item power-cycles outlets on its own later: the Core checks the reservations and logs the change).
 */
import type { Command } from 'commander';
import type { AutopingItem, AutopingItemInput } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import type { CommandContext, Runner } from './command-context';
import { withTarget } from './core-route';
import { leaf } from './global-options';
import { UsageError, excerpt } from './io';
import { parseNumberList } from './outlet-spec';
import { renderTable } from './table';

interface ItemOptions {
  outlets?: string;
  addresses?: string;
  pingsBeforeEnabling?: string;
  resumptionTrial?: boolean;
  script?: string;
  disabled?: boolean;
}

function itemNumber(text: unknown): number {
  const typed = String(text);
  if (!/^\d{1,4}$/.test(typed) || Number(typed) < 1)
    throw new UsageError(`"${excerpt(typed)}" is not an AutoPing item number (see: plugboard autoping).`);
  return Number(typed);
}

function addressList(text: string): string[] {
  const list = text.split(',').map((part) => part.trim());
  if (list.some((part) => part === '')) throw new UsageError('Addresses are separated by single commas.');
  return list;
}

function pings(text: string | undefined, current: number | null): number | null {
  if (text === undefined) return current;
  if (text === 'default') return null;
  if (!/^\d{1,4}$/.test(text))
    throw new UsageError(
      '--pings-before-enabling is a whole number, or "default" for the controller\'s setting.',
    );
  return Number(text);
}

/** The item the options describe, on top of `base` (edit) or of the defaults (add). */
function itemFrom(options: ItemOptions, base: AutopingItemInput): AutopingItemInput {
  return {
    addresses: options.addresses === undefined ? base.addresses : addressList(options.addresses),
    outlets: options.outlets === undefined ? base.outlets : parseNumberList(options.outlets, '--outlets'),
    enabled: options.disabled ? false : base.enabled,
    pingsBeforeEnabling: pings(options.pingsBeforeEnabling, base.pingsBeforeEnabling),
    resumptionTrial: options.resumptionTrial ?? base.resumptionTrial,
    script: options.script ?? base.script,
  };
}

function printItems(context: CommandContext, controller: string, items: AutopingItem[]): void {
  if (context.json) return context.terminal.json(items);
  if (items.length === 0) return context.terminal.print(`${controller} has no AutoPing items.`);
  context.terminal.print(
    renderTable(
      items,
      [
        { title: '#', value: (i) => String(i.number), align: 'right' },
        { title: 'ADDRESSES', value: (i) => i.addresses.join(', ') },
        { title: 'OUTLETS', value: (i) => i.outlets.join(',') || '-' },
        { title: 'ENABLED', value: (i) => (i.enabled ? 'yes' : 'no') },
        {
          title: 'PINGS',
          value: (i) => (i.pingsBeforeEnabling === null ? 'default' : String(i.pingsBeforeEnabling)),
        },
        { title: 'TRIAL', value: (i) => (i.resumptionTrial ? 'yes' : 'no') },
        { title: 'ACTION', value: (i) => (i.script ? `script ${i.script}` : 'cycle') },
        { title: 'STATUS', value: (i) => i.status },
      ],
      (s) => s,
    ),
  );
}

/** The item as a save takes it (without its number and status). */
function inputOf(item: AutopingItem): AutopingItemInput {
  const { number: _number, status: _status, ...input } = item;
  return input;
}

/** Save an item through the Core (`change` gets the current item, or null for a new one). */
async function saveItem(
  context: CommandContext,
  number: number | undefined,
  change: (current: AutopingItem | null) => AutopingItemInput,
  done: (items: AutopingItem[], controller: string) => void,
): Promise<void> {
  await withTarget(context, async (core, saved) => {
    let current: AutopingItem | null = null;
    if (number !== undefined) {
      current =
        (await core.call('autoping/list', { controllerId: saved.id })).find((i) => i.number === number) ??
        null;
      if (!current)
        throw new PlugboardError('NOT_FOUND', `${saved.name} has no AutoPing item ${number}.`, undefined, {
          action: 'See the items with: plugboard autoping',
        });
    }
    const item = change(current);
    const items = await core.call('autoping/save', {
      controllerId: saved.id,
      ...(number === undefined ? {} : { number }),
      item,
    });
    done(items, saved.name);
  });
}

const itemOptions = (command: Command): Command =>
  command
    .option('--outlets <list>', 'outlets to power-cycle when the addresses stop answering, e.g. 1,2')
    .option('--pings-before-enabling <n>', 'answered pings before the item arms, or "default"')
    .option('--resumption-trial', 'after a power cycle, wait for answered pings again before re-arming')
    .option('--no-resumption-trial', 're-arm at once after a power cycle')
    .option('--script <function>', 'run this user function instead of power-cycling ("" to cycle again)')
    .option('--disabled', 'save the item switched off');

export function registerAutopingCommands(program: Command, run: Runner): void {
  const autoping = leaf(
    program
      .command('autoping')
      .description('AutoPing items with their status; add, edit, enable, disable, delete (admin only)'),
  ).action(
    run(async (context) => {
      await withTarget(context, async (core, saved) =>
        printItems(context, saved.name, await core.call('autoping/list', { controllerId: saved.id })),
      );
    }),
  );

  leaf(
    itemOptions(
      autoping
        .command('add')
        .argument(
          '<addresses>',
          'address to ping, or several separated by commas (any one answering is enough)',
        )
        .description('add an AutoPing item'),
    ),
  ).action(
    run(async (context, addresses) => {
      const local = context.local as ItemOptions;
      if (local.outlets === undefined && !local.script)
        throw new UsageError('autoping add needs --outlets (the outlets to power-cycle) or --script.');
      const item = itemFrom(local, {
        addresses: addressList(String(addresses)),
        outlets: [],
        enabled: true,
        pingsBeforeEnabling: null,
        resumptionTrial: false,
        script: '',
      });
      const done = (items: AutopingItem[], controller: string): void => {
        if (context.json) return context.terminal.json(items.at(-1));
        context.terminal.print(
          `Added AutoPing item ${items.length} on ${controller}: ping ${item.addresses.join(', ')}.`,
        );
      };
      await saveItem(context, undefined, () => item, done);
    }),
  );

  leaf(
    itemOptions(
      autoping
        .command('edit')
        .argument('<number>', 'item number (see: plugboard autoping)')
        .option('--addresses <list>', 'addresses to ping, separated by commas')
        .description('change an AutoPing item; what is not given stays as it is'),
    ),
  ).action(
    run(async (context, numberText) => {
      const number = itemNumber(numberText);
      const local = context.local as ItemOptions;
      const done = (items: AutopingItem[], controller: string): void => {
        if (context.json) return context.terminal.json(items[number - 1]);
        context.terminal.print(`Changed AutoPing item ${number} on ${controller}.`);
      };
      const edit = (current: AutopingItem | null) => itemFrom(local, inputOf(current!));
      await saveItem(context, number, edit, done);
    }),
  );

  for (const enabled of [true, false]) {
    const verb = enabled ? 'enable' : 'disable';
    leaf(
      autoping
        .command(verb)
        .argument('<number>', 'item number (see: plugboard autoping)')
        .description(`${verb} an AutoPing item`),
    ).action(
      run(async (context, numberText) => {
        const number = itemNumber(numberText);
        const done = (items: AutopingItem[], controller: string): void => {
          if (context.json) return context.terminal.json(items[number - 1]);
          context.terminal.print(
            `${enabled ? 'Enabled' : 'Disabled'} AutoPing item ${number} on ${controller}.`,
          );
        };
        const toggle = (current: AutopingItem | null) => ({ ...inputOf(current!), enabled });
        await saveItem(context, number, toggle, done);
      }),
    );
  }

  leaf(
    autoping
      .command('delete')
      .argument('<number>', 'item number (see: plugboard autoping)')
      .description('delete an AutoPing item; the items after it move up by one'),
  ).action(
    run(async (context, numberText) => {
      const number = itemNumber(numberText);
      await withTarget(context, async (core, saved) => {
        const items = await core.call('autoping/remove', { controllerId: saved.id, number });
        if (context.json) return context.terminal.json(items);
        context.terminal.print(`Deleted AutoPing item ${number} on ${saved.name}.`);
      });
    }),
  );
}
