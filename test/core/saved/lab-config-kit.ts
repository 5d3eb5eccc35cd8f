/**
 * A config folder written by this version of Plugboard (a Core on config.json, as the desktop app and a
 * service on SQLite keep it): two controllers with secrets, one with an alias and tags, a group, a sequence, and
 * settings with meter limits and tray favourites. What it holds is read back from config.json.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ControllerSummary, Group, Settings } from '../../../src-preload/contract';
import { openConfStore } from '../../../src-main/core/saved/conf-store';
import type { MemorySecretStore } from '../../../src-main/secrets';
import { addController, emulator, newCore } from '../harness';

export interface FolderConfig {
  controllers: ControllerSummary[];
  groups: Group[];
  settings: Settings;
  /** config.json as it was written. */
  text: string;
}

export async function writtenByThisVersion(dir: string, secrets: MemorySecretStore): Promise<FolderConfig> {
  const core = newCore({ store: openConfStore(dir), dataDir: dir, secrets });
  const [one, two] = [await emulator(), await emulator()];
  const a = await addController(core, one, { name: 'Bench A' });
  const b = await addController(core, two, { name: 'Bench B' });
  await core.ok('controllers/update', { id: a.id, alias: 'bench-a', tags: ['rack-7', 'arm64'] });
  await core.ok('groups/save', {
    name: 'Rack 7',
    members: [
      { controllerId: a.id, outlet: 1 },
      { controllerId: b.id, outlet: 2 },
    ],
  });
  await core.ok('sequences/save', {
    name: 'Rack 7 power-on',
    steps: [
      { controllerId: a.id, outlets: [3], wait: { kind: 'delay', seconds: 5 } },
      { controllerId: b.id, outlets: [4], wait: { kind: 'confirmed', timeoutSeconds: 30 } },
    ],
  });
  await core.ok('settings/set', {
    pollIntervalMs: 7000,
    meterThresholds: [{ controllerId: a.id, key: 'buses.0.voltage', min: 110, max: 125 }],
    trayFavourites: [{ controllerId: b.id, outlet: 2 }],
  });
  const controllers = await core.ok<ControllerSummary[]>('controllers/list', {});
  const groups = await core.ok<Group[]>('groups/list', {});
  const settings = await core.ok<Settings>('settings/get', {});
  await core.core.dispose();
  return { controllers, groups, settings, text: readFileSync(path.join(dir, 'config.json'), 'utf8') };
}
