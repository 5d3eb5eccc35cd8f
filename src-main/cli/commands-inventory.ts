/**
 * `inventory`: the fleet inventory through the Core — every saved controller's model,
 * serial, firmware, relay firmware, SSH, user count, outlets on and last seen, with drift marked (`*`:
 * a newer firmware runs on another controller of the same model) and last-known values of controllers
 * that did not answer marked `(last known)`. `--json` prints the rows; `--csv` the same CSV as the
 * window's export (core/fleet/inventory-rows.ts).
 */
import type { Command } from 'commander';
import type { InventoryRow } from '../../src-preload/model';
import { localDateTime } from '../../src-preload/words';
import type { Runner } from './command-context';
import { leaf } from './global-options';
import { UsageError } from './io';
import { renderTable } from './table';

function localTime(time: number | null): string {
  return time === null ? 'never' : localDateTime(time);
}

const known = (value: string | number | null): string => (value === null ? '?' : String(value));

export function registerInventoryCommands(program: Command, run: Runner): void {
  leaf(
    program
      .command('inventory')
      .description('every saved controller: model, serial, firmware, SSH, users, outlets on, last seen')
      .option('--csv', 'CSV on stdout (RFC 4180, times in UTC)')
      .option('--timeout <seconds>', 'how long to wait for controllers to answer (default 20)'),
    ['--url', '--controller'],
  ).action(
    run(async (context) => {
      const o = context.options;
      if (o.csv === true && context.json) throw new UsageError('Give --json or --csv, not both.');
      const seconds = o.timeout === undefined ? 20 : Number(o.timeout);
      if (!Number.isFinite(seconds) || seconds < 1 || seconds > 120) {
        throw new UsageError('--timeout takes seconds from 1 to 120 (e.g. --timeout 30).');
      }
      const { withCore } = await import('./core-access');
      await withCore(context, async (core) => {
        const rows = await core.call('fleet/inventory', {
          wait: true,
          timeoutMs: Math.round(seconds * 1000),
        });
        const { terminal } = context;
        if (context.json) return terminal.json(rows);
        if (o.csv === true) {
          const { inventoryCsv } = await import('./core-access');
          terminal.io.out.write(inventoryCsv(rows));
          return;
        }
        if (!rows.length) return terminal.print('No controllers are saved. Add one with: plugboard add');
        const drift = (version: string | null, newer: string | null): string =>
          newer ? `${known(version)} * (${newer} on same model)` : known(version);
        terminal.print(
          renderTable<InventoryRow>(
            rows,
            [
              { title: 'CONTROLLER', value: (r) => (r.stale ? `${r.name} (last known)` : r.name) },
              { title: 'STATUS', value: (r) => r.status },
              { title: 'MODEL', value: (r) => known(r.model) },
              { title: 'SERIAL', value: (r) => known(r.serial) },
              { title: 'FIRMWARE', value: (r) => drift(r.firmware, r.firmwareBehind) },
              { title: 'RELAY FW', value: (r) => drift(r.relayFirmware, r.relayFirmwareBehind) },
              { title: 'SSH', value: (r) => (r.sshEnabled === null ? '?' : r.sshEnabled ? 'on' : 'off') },
              { title: 'USERS', value: (r) => known(r.userCount), align: 'right' },
              {
                title: 'ON',
                value: (r) => (r.outletCount === null ? '?' : `${r.outletsOn ?? '?'}/${r.outletCount}`),
                align: 'right',
              },
              { title: 'LAST SEEN', value: (r) => localTime(r.lastSeen) },
            ],
            terminal.colors.bold,
          ),
        );
        if (rows.some((r) => r.firmwareBehind || r.relayFirmwareBehind))
          terminal.print('* older than the newest firmware seen on the same model');
      });
    }),
  );
}
