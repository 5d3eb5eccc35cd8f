/**
 * Every test file runs, in exactly one project: Vitest's own resolution of vitest.config.ts (each
 * project's `globTestFiles`, what `vitest run` would run) against every `test/**\/*.test.ts` on disk.
 * `real-unit` is a rerun of `fast` files and may only hold files that start an emulator through the
 * harness, where the profile changes something.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createVitest, type Vitest } from 'vitest/node';
import { marksRealUnit, REAL_UNIT_MARK, testFiles } from './projects';

const root = resolve(import.meta.dirname, '..');
let vitest: Vitest | null = null;

afterAll(async () => {
  await vitest?.close();
});

async function resolvedProjects(): Promise<Map<string, string[]>> {
  vitest = await createVitest('test', { root, config: join(root, 'vitest.config.ts'), watch: false });
  const byProject = new Map<string, string[]>();
  for (const project of vitest.projects) {
    const { testFiles: found } = await project.globTestFiles();
    byProject.set(
      project.name,
      found.map((file) => relative(root, file).split('\\').join('/')),
    );
  }
  return byProject;
}

const STARTS_EMULATOR = /\bemulator\(|\bprofileOptions\(|startEmulator\(/;

/**
 * Whether a test file starts an emulator itself or through a test helper it imports from its own folder
 * or the one above (test/core/<room>/ tests share test/core's helpers).
 */
function startsEmulator(file: string, text: string): boolean {
  if (STARTS_EMULATOR.test(text)) return true;
  // Not the harness itself: it defines emulator(), which says nothing of whether the file calls it.
  const helpers = [...text.matchAll(/from '(\.{1,2}\/[\w-]+)'/g)]
    .filter((m) => !m[1]!.endsWith('/harness'))
    .map((m) => join(root, dirname(file), `${m[1]}.ts`));
  return helpers.some((helper) => existsSync(helper) && STARTS_EMULATOR.test(readFileSync(helper, 'utf8')));
}

describe('the test projects', () => {
  it('put every test file in exactly one project besides the real-unit rerun', async () => {
    const projects = await resolvedProjects();
    const onDisk = testFiles(root);
    expect(onDisk.length).toBeGreaterThan(100);
    const homes = new Map<string, string[]>(onDisk.map((file) => [file, []]));
    for (const [name, files] of projects) {
      if (name === 'real-unit') continue;
      for (const file of files) homes.get(file)?.push(name);
    }
    const wrong = [...homes].filter(([, names]) => names.length !== 1);
    expect(wrong, 'files in no project or in several').toEqual([]);
    // Nothing runs that is not a test file on disk.
    const run = [...projects.values()].flat();
    expect(run.filter((file) => !homes.has(file))).toEqual([]);
  });

  it('rerun against the real-unit profile only fast files that say so and start an emulator', async () => {
    const projects = await resolvedProjects();
    const rerun = projects.get('real-unit') ?? [];
    const fast = new Set(projects.get('fast') ?? []);
    expect(rerun.length).toBeGreaterThan(0);
    for (const file of rerun) {
      const text = readFileSync(join(root, file), 'utf8');
      expect(fast.has(file), `${file} is a fast file`).toBe(true);
      expect(marksRealUnit(text), `${file} says ${REAL_UNIT_MARK}`).toBe(true);
      expect(
        startsEmulator(file, text),
        `${file} starts an emulator (otherwise the profile changes nothing)`,
      ).toBe(true);
    }
  });
});
