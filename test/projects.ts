/**
 * Which Vitest project runs each test file, decided by where the file is and what its name says, so a
 * file declares its own kind:
 *
 * - `fast`: in-process tests against real emulators over real HTTP and digest, fake-clock tests, the
 *   Core, the CLI through `runCli`, the listeners in process. What `npm test` runs, with `renderer`.
 * - `renderer`: Svelte components in jsdom (`test/renderer/`).
 * - `system`: `*.system.test.ts`: child processes (the built `plugboard`, `npm run web`), a keychain
 *   session, network namespaces, Apache, Debian's pduclient.
 * - `browser`: the window in Chromium (`test/e2e/`).
 * - `scale`: `*.scale.test.ts`: 200 controllers.
 * - `electron`: the built app under the Electron stand-in (`test/electron/`).
 * - `packaging`: the installers' layout (`test/packaging/`).
 * - `real-unit`: a rerun of the `fast` files that say so in their opening comment (`@real-unit`), against
 *   the emulator's real-unit profile. The only project whose files also belong to another.
 *
 * test/projects.test.ts checks that every test file belongs to exactly one project besides `real-unit`,
 * and that every file marked `@real-unit` starts an emulator through the harness.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';

export type ProjectName =
  'fast' | 'renderer' | 'system' | 'browser' | 'scale' | 'electron' | 'packaging' | 'real-unit';

/** The mark a `fast` file puts in its opening comment to be run against the real-unit profile too. */
export const REAL_UNIT_MARK = '@real-unit';

const SYSTEM = /\.system\.test\.ts$/;
const SCALE = /\.scale\.test\.ts$/;

/** The primary project of a test file (a path relative to the repository, with forward slashes). */
export function projectOf(file: string): Exclude<ProjectName, 'real-unit'> | null {
  if (!file.startsWith('test/') || !file.endsWith('.test.ts')) return null;
  if (file.startsWith('test/bench/')) return null;
  if (SCALE.test(file)) return 'scale';
  if (file.startsWith('test/electron/')) return 'electron';
  if (file.startsWith('test/packaging/')) return 'packaging';
  if (file.startsWith('test/e2e/')) return 'browser';
  if (file.startsWith('test/renderer/')) return 'renderer';
  if (SYSTEM.test(file)) return 'system';
  return 'fast';
}

/** Every `*.test.ts` under test/ (bench excluded), relative to `root`, sorted. */
export function testFiles(root: string): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name !== 'node_modules' && entry.name !== 'bench') walk(path);
      } else if (entry.name.endsWith('.test.ts')) found.push(relative(root, path).split('\\').join('/'));
    }
  };
  walk(join(root, 'test'));
  return found.sort();
}

/** Whether a file's opening comment carries the real-unit mark. */
export function marksRealUnit(text: string): boolean {
  const opening = /^\s*\/\*\*?([\s\S]*?)\*\//.exec(text);
  return opening !== null && opening[1]!.includes(REAL_UNIT_MARK);
}

/** The files of each project, by the rules above. */
export function filesByProject(root: string): Record<ProjectName, string[]> {
  const out: Record<ProjectName, string[]> = {
    fast: [],
    renderer: [],
    system: [],
    browser: [],
    scale: [],
    electron: [],
    packaging: [],
    'real-unit': [],
  };
  for (const file of testFiles(root)) {
    const project = projectOf(file);
    if (!project) continue;
    out[project].push(file);
    if (project === 'fast' && marksRealUnit(readFileSync(join(root, file), 'utf8')))
      out['real-unit'].push(file);
  }
  return out;
}
