/**
 * The built `plugboard serve` holds a reservation for someone else; the built CLI, given a one-off login
 * to the same unit (`--url` at its address with a typed password, or `--controller NAME --reuse-secret`),
 * goes through the service's Core and is refused with the reservation's sentence (exit 5). The outlet
 * stays on, and the service sees no change from outside Plugboard.
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { ControllerState } from '../../src-preload/model';
import { findRunningCore } from '../../src-main/link';
import { storedActivity } from '../core/stored-activity';
import { cleanUpServe, cliBuilt, savedBench, serveBuilt as serve } from './built-serve';

afterEach(cleanUpServe);

describe('a reservation held in plugboard serve', () => {
  it(
    'refuses the CLI’s one-off logins to the reserved unit: through the service, exit 5, the outlet untouched',
    { timeout: 180_000 },
    async () => {
      const { configDir, credentials, controller, emu } = await savedBench();
      emu.device.setOutlet(2, { state: true });
      const service = serve(['--listen', 'api=127.0.0.1:0', '--config-dir', configDir], {
        CREDENTIALS_DIRECTORY: credentials,
      });
      await service.line(/^Ready\.$/);
      const link = await findRunningCore(configDir);
      expect(link).not.toBeNull();
      const alice = link!.handlersAs({ door: 'cli', who: 'alice' });
      // Online in the service, so the refusal is the reservation's, not an unreachable unit's.
      const online = new Promise<void>((resolve) => {
        link!.subscribe((name, payload) => {
          if (name === 'state/changed' && (payload as ControllerState).status === 'online') resolve();
        });
      });
      await alice['controllers/refresh']({ id: controller.id });
      await online;
      await alice['reservations/take']({
        target: { kind: 'outlet', controllerId: controller.id, outlet: 3 },
        reason: 'flashing firmware',
        durationMs: 3_600_000,
      });

      const env = { PLUGBOARD_CONFIG_DIR: configDir };
      const byUrl = await cliBuilt(
        ['--url', emu.url, '--user', 'admin', '--password-stdin', 'off', '3'],
        env,
        '1234\n',
      );
      const bySaved = await cliBuilt(['--controller', 'bench-a', '--reuse-secret', 'off', '3'], env);
      const sentence =
        /^plugboard: Outlet 3 on bench-a is reserved by alice until [0-9: -]+: flashing firmware\..*\[RESERVED\]$/m;
      for (const run of [byUrl, bySaved]) {
        expect(run.code, run.stderr).toBe(5);
        expect(run.stderr).toMatch(sentence);
      }
      // The typed password was read but not sent: the service logs in with its own.
      expect(byUrl.stderr).toContain(
        'bench-a is a saved controller, so this goes through the Plugboard service, which logs in to it as admin: the password given was not used.',
      );
      expect(emu.device.outlet(2).state).toBe(true);
      expect(emu.device.outlet(2).physicalState).toBe(true);

      service.child.kill('SIGTERM');
      expect((await service.exit).code).toBe(0);
      const log = storedActivity(configDir);
      expect(log.filter((e) => e.source === 'outside')).toEqual([]);
      expect(log.filter((e) => e.outlet === 3 && e.result === 'ok').map((e) => e.who)).toEqual(['alice']);
    },
  );
});
