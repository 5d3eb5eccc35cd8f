/** The production build the bundle and start-up measurements need (`npx electron-vite build`). */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';

export const repoRoot = resolve(import.meta.dirname, '..', '..');
export const rendererDir = resolve(repoRoot, 'out', 'renderer');

let built: Promise<void> | null = null;

/** Build once per bench run; a failed build is an error that says what to run to see why. */
export function buildOnce(): Promise<void> {
  built ??= new Promise<void>((done, fail) => {
    execFile(
      'npx',
      ['electron-vite', 'build', '--logLevel', 'error'],
      { cwd: repoRoot, maxBuffer: 64 * 1024 * 1024, env: { ...process.env, NO_COLOR: '1' } },
      (error, _stdout, stderr) => {
        if (error) {
          const noise = /Unknown user config "nodedir"/;
          const why = stderr
            .split('\n')
            .filter((l) => l.trim() && !noise.test(l))
            .slice(-15)
            .join('\n');
          fail(new Error(`The production build failed (npx electron-vite build):\n${why}`));
          return;
        }
        if (!existsSync(resolve(rendererDir, 'index.html'))) {
          fail(new Error(`The build finished but ${rendererDir}/index.html is missing.`));
          return;
        }
        done();
      },
    );
  });
  return built;
}
