/**
 * The audit trail survives abuse, at the process level: the built `plugboard serve` with a reservation
 * taken, then 20,100 refused pdudaemon TCP lines (`bench-a 3 off`, one per connection as pduclient sends
 * them, a few clients on loopback addresses, a bounded number in flight). The log still holds who added
 * the controller and who took the reservation, in memory and in its lab store after the service stopped, and
 * the refusals are counted: every one of them, in a few entries.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import { findRunningCore } from '../../src-main/link';
import { storedActivity } from '../core/stored-activity';
import { cleanUpServe, savedBench, serveBuilt } from './built-serve';
import { pduTcp } from './pdudaemon-client';

afterEach(cleanUpServe);

const REFUSALS = 20_100;
const CLIENTS = ['127.0.0.1', '127.0.0.2', '127.0.0.3'];
const IN_FLIGHT = 12;

function summary(entries: readonly ActivityEntry[]) {
  const refused = entries.filter((e) => e.action === 'refused');
  return {
    added: entries.some((e) => e.action === 'added to Plugboard' && e.controllerName === 'bench-a'),
    reserved: entries.some((e) => e.action.startsWith('reserved until') && e.who === 'alice'),
    refusals: refused.reduce((sum, e) => sum + (e.count ?? 1), 0),
    refusalEntries: refused.length,
  };
}

describe('the activity log of plugboard serve under a flood of refused pdudaemon requests', () => {
  it(
    'keeps its earlier entries, in memory and in the store, and counts every refusal',
    { timeout: 600_000 },
    async () => {
      const { configDir, credentials, controller } = await savedBench();
      const service = serveBuilt(['--listen', 'pdudaemon=127.0.0.1:0', '--config-dir', configDir], {
        CREDENTIALS_DIRECTORY: credentials,
      });
      const port = Number((await service.line(/^pdudaemon: 127\.0\.0\.1:(\d+) /))[1]);
      await service.line(/^Ready\.$/);
      const link = await findRunningCore(configDir);
      expect(link).not.toBeNull();
      await link!.handlersAs({ door: 'cli', who: 'alice' })['reservations/take']({
        target: { kind: 'outlet', controllerId: controller.id, outlet: 3 },
        reason: 'flashing firmware',
        durationMs: 3_600_000,
      });

      let sent = 0;
      const answers = new Map<string, number>();
      const client = async (worker: number) => {
        while (sent < REFUSALS) {
          sent++;
          const reply = await pduTcp(port, 'bench-a 3 off', CLIENTS[worker % CLIENTS.length]);
          const kind = /^nack: .*reserved by alice/.test(reply) ? 'reserved' : reply;
          answers.set(kind, (answers.get(kind) ?? 0) + 1);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, (_, worker) => client(worker)));
      expect(Object.fromEntries(answers)).toEqual({ reserved: REFUSALS });

      const shown = summary(await link!.handlersAs({ door: 'cli', who: 'alice' })['activity/list']({}));
      expect(shown).toMatchObject({ added: true, reserved: true, refusals: REFUSALS });
      expect(shown.refusalEntries).toBeLessThanOrEqual(CLIENTS.length * 20);

      service.child.kill('SIGTERM');
      await link!.closed;
      expect((await service.exit).code).toBe(0);
      // The lab store holds each entry once (a counted refusal's row with its last count).
      const written = summary(storedActivity(configDir));
      expect(written).toEqual(shown);
    },
  );
});
