/**
 * The `plugboard` command (the package's `bin`, built to out/main/plugboard.js): `plugboard serve …`
 * runs the service (src-main/serve), anything else the command line (src-main/cli). Each door is loaded
 * only when asked for, so a CLI command never loads the service's code, nor the service the CLI's.
 */
import { enableCompileCache } from 'node:module';
import { homedir } from 'node:os';
import { join } from 'node:path';

/**
 * Where compiled code is kept between commands: this user's cache folder, never a shared one (code
 * read from a folder another user can write would run as this user).
 */
function compileCacheDir(): string {
  const env = process.env;
  if (process.platform === 'win32')
    return join(env.LOCALAPPDATA || join(homedir(), 'AppData', 'Local'), 'Plugboard', 'compile-cache');
  if (process.platform === 'darwin')
    return join(homedir(), 'Library', 'Caches', 'Plugboard', 'compile-cache');
  return join(env.XDG_CACHE_HOME || join(homedir(), '.cache'), 'plugboard', 'compile-cache');
}

// A command is a new process each time, and much of its start is V8 compiling the same bundled code
// again. Node keeps the compiled code in a cache checked against each file, so a new build is compiled
// afresh; a cache that cannot be written only costs the compiling. NODE_COMPILE_CACHE, when set, wins.
// Enabled before the door's code is loaded.
enableCompileCache(process.env.NODE_COMPILE_CACHE ? undefined : compileCacheDir());

const args = process.argv.slice(2);
if (args[0] === 'serve') {
  const { runServe } = await import('../serve/main');
  const code = await runServe(args.slice(1));
  process.exitCode = code;
  // Whatever timers or sockets a dependency left behind, the service is over.
  process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
} else {
  await import('../cli/main');
}

export {};
