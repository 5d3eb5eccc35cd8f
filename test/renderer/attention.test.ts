/**
 * One message per cause: controllers sharing a status and reason make one message; a reading is shown
 * with the digit that decides its breach; the password prompt's outcome is one line per cause; and what
 * each status says matches what Plugboard does (polling pauses on a refused login and a changed
 * certificate, so those do not promise a recovery).
 */
import { expect, test } from 'vitest';
import type { ContractError, ControllerState } from '../../src-preload/model';
import { reasonOf, statusItems, statusNeed } from '../../src-renderer/lib/attention';
import { decisiveReading } from '../../src-renderer/lib/meters';
import { readIntervalMs } from '../../src-renderer/lib/status';
import { controllerBlockReason } from '../../src-renderer/lib/outlet-text';
import { outcomeLines } from '../../src-renderer/lib/password-needed';
import { controllerState, summary } from './fixtures';

const refused = (name: string, port: number): ContractError => ({
  code: 'UNREACHABLE',
  message: `Cannot reach ${name} at http://127.0.0.1:${port} (connection refused).`,
  action: 'Check the address and that the controller is powered and on the network.',
});

test('200 controllers refused the same way are one message naming five of them', () => {
  const controllers = Array.from({ length: 200 }, (_, i) =>
    summary({ id: `u${i}`, name: `Unit ${String(i + 1).padStart(3, '0')}`, order: i }),
  );
  const states: Record<string, ControllerState> = Object.fromEntries(
    controllers.map((c, i) => [
      c.id,
      controllerState({ id: c.id, status: 'offline', problem: refused(c.name, 9000 + i) }),
    ]),
  );
  // One of them times out instead: a cause of its own.
  states.u7 = controllerState({
    id: 'u7',
    status: 'offline',
    problem: { code: 'TIMEOUT', message: 'Unit 008 did not answer within 10 s.' },
  });
  const items = statusItems(controllers, states, 3000, Date.now());
  expect(items.map((i) => i.headline)).toEqual([
    '199 controllers offline (connection refused): Unit 001, Unit 002, Unit 003, Unit 004, Unit 005 and 194 more',
    'Unit 008 is offline',
  ]);
  expect(items[0]!.detail).toBe(
    'Plugboard keeps trying. Check the address and that the controller is powered and on the network.',
  );
  expect(items[0]!.action).toBe('retry');
  expect(items[0]!.controllers).toHaveLength(199);
  // One controller: its own message says what went wrong, once.
  expect(items[1]!.detail).toMatch(/^Unit 008 did not answer within 10 s\. Plugboard keeps trying\. /);
});

test('controllers waiting for a password are left to the prompt above', () => {
  const c = summary();
  const items = statusItems(
    [c],
    { [c.id]: controllerState({ status: 'password_needed', problem: null }) },
    3000,
    Date.now(),
  );
  expect(items).toEqual([]);
});

test('a refused login and a changed certificate say what they need; only the others promise to come back', () => {
  const auth: ContractError = {
    code: 'AUTH_FAILED',
    message: 'Wrong user name or password for Bench A (user "admin").',
  };
  expect(reasonOf(auth)).toBe('user "admin"');
  expect(statusNeed('auth_failed', auth, 'here')).toBe(
    'Plugboard stopped trying, so the user is not locked out: enter the password below.',
  );
  expect(statusNeed('tls_changed', null, 'list')).not.toMatch(/keeps trying|come back/);
  expect(controllerBlockReason({ status: 'auth_failed' })).not.toMatch(/come back/);
  expect(controllerBlockReason({ status: 'tls_changed' })).not.toMatch(/come back/);
  expect(controllerBlockReason({ status: 'offline' })).toMatch(/keeps trying, and controls come back/);
  // A changed certificate's message names fingerprints: no reason to group by.
  expect(
    reasonOf({
      code: 'TLS_CHANGED',
      message: 'The HTTPS certificate of A changed (now SHA-256 AB, accepted CD).',
    }),
  ).toBeNull();
});

test('a reading is shown with the digit that decides it, the limit as it was set', () => {
  expect(decisiveReading(120.53, 120.5, 'V', 'C')).toEqual({ value: '120.53 V', limit: '120.5 V' });
  expect(decisiveReading(120.501, 120.5, 'V', 'C')).toEqual({ value: '120.501 V', limit: '120.5 V' });
  expect(decisiveReading(130, 125, 'V', 'C')).toEqual({ value: '130.0 V', limit: '125 V' });
  expect(decisiveReading(9.96, 10, 'A', 'C')).toEqual({ value: '9.96 A', limit: '10 A' });
  // Inside, next to the limit: it does not read as the limit either.
  expect(decisiveReading(120.47, 120.5, 'V', 'C').value).toBe('120.47 V');
  // In °F, both converted first: 35.02 °C is 95.036 °F against a maximum of 95 °F.
  expect(decisiveReading(35.02, 35, '°C', 'F')).toEqual({ value: '95.04 °F', limit: '95 °F' });
});

test('the password prompt answers with one line per cause, not one per controller', () => {
  const results = Array.from({ length: 200 }, (_, i) => {
    const name = `Unit ${String(i + 1).padStart(3, '0')}`;
    return i < 198
      ? { name, message: `${name} did not accept this password for admin; it still needs one.` }
      : {
          name,
          message: `${name} could not check the password, so it still needs one: Cannot reach ${name} at http://127.0.0.${10 + i}:80 (connection refused).`,
        };
  });
  expect(outcomeLines([...results, { name: 'Bench A', message: null }])).toEqual([
    'Unit 001, Unit 002, Unit 003, Unit 004, Unit 005 and 193 more did not accept this password for admin; they still need one.',
    'Unit 199 and Unit 200 could not check the password, so they still need one: Cannot reach them (connection refused).',
  ]);
});

test("a unit that publishes its changes over MQTT is stale only past its safety interval's reads", () => {
  const now = 1_800_000_000_000;
  const settings = { pollIntervalMs: 3000, unitSafetyPollMs: 30_000 };
  const polled = summary({ id: 'polled', name: 'Polled' });
  const heard = summary({ id: 'heard', name: 'Heard', mqttTopic: 'lab/pdu1' });
  const states = Object.fromEntries(
    [polled, heard].map((c) => [
      c.id,
      controllerState({ id: c.id, status: 'online', lastUpdate: now - 40_000 }),
    ]),
  );
  const stale = (at: number) =>
    statusItems([polled, heard], states, (c) => readIntervalMs(c, settings), at).flatMap((i) =>
      i.controllers.map((c) => c.name),
    );
  // 40 s without a read: late for a 3 s poll, on time for a unit read every 30 s.
  expect(stale(now)).toEqual(['Polled']);
  expect(stale(now + 60_000)).toEqual(['Polled', 'Heard']);
});
