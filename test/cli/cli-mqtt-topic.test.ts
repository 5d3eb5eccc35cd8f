/**
 * `controllers add --mqtt-topic` and `controllers update --mqtt-topic / --no-mqtt-topic`: the topic root a
 * unit publishes its outlets under is saved with the controller, shown by `controllers list --json`, and a
 * root with a wildcard is refused with a sentence that says what to give.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { PASSWORD, emulator } from './cli-fixtures';
import { cleanEnv, cli } from './run-cli';

const scratch = mkdtempSync(join(tmpdir(), 'plugboard-cli-mqtt-topic-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true, maxRetries: 5 }));
const env = cleanEnv({ PLUGBOARD_CONFIG_DIR: scratch, DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent' });

const listed = async () => {
  const list = await cli(['controllers', 'list', '--json'], { env });
  expect(list.code, list.stderr).toBe(0);
  return list.json<{ name: string; mqtt_topic: string | null }[]>();
};

it('saves, shows, changes and removes the topic root, and refuses a wildcard', async () => {
  const unit = await emulator();
  const added = await cli(
    ['--url', unit.url, '--password-stdin', 'controllers', 'add', 'Bench A', '--mqtt-topic', 'lab/pdu1/'],
    { env, stdin: `${PASSWORD}\n` },
  );
  expect(added.code, added.stderr).toBe(0);
  expect(await listed()).toEqual([expect.objectContaining({ name: 'Bench A', mqtt_topic: 'lab/pdu1' })]);

  const wildcard = await cli(['controllers', 'update', 'Bench A', '--mqtt-topic', 'lab/+/pdu1'], { env });
  expect(wildcard.code).not.toBe(0);
  expect(wildcard.stderr).toMatch(/may not contain the wildcards \+ or #/);
  expect(await listed()).toEqual([expect.objectContaining({ mqtt_topic: 'lab/pdu1' })]);

  const moved = await cli(['controllers', 'update', 'Bench A', '--mqtt-topic', 'rack7/pdu1'], { env });
  expect(moved.code, moved.stderr).toBe(0);
  expect(moved.stdout).toMatch(/"Bench A" publishes its outlets under rack7\/pdu1/);
  expect(await listed()).toEqual([expect.objectContaining({ mqtt_topic: 'rack7/pdu1' })]);

  const removed = await cli(['controllers', 'update', 'Bench A', '--no-mqtt-topic'], { env });
  expect(removed.code, removed.stderr).toBe(0);
  expect(await listed()).toEqual([expect.objectContaining({ mqtt_topic: null })]);

  const nothing = await cli(['controllers', 'update', 'Bench A'], { env });
  expect(nothing.code).toBe(2);
  expect(nothing.stderr).toMatch(/--mqtt-topic ROOT or --no-mqtt-topic/);
});
