/**
 * The `plugboard` command: `node out/main/plugboard.js …` (the package's `bin`, built by
 * `npx electron-vite build`), or `npm run --silent cli -- …` from the source tree. See program.ts.
 */
import { runCli } from './program';

const code = await runCli(process.argv.slice(2), {
  out: process.stdout,
  err: process.stderr,
  in: process.stdin,
  env: process.env,
});
// The command is finished once runCli resolves: exit as soon as what it printed is flushed, rather than
// waiting for idle keep-alive sockets and timers to wind down (about 0.1 s a call, most of a short
// command's wall time). Writing '' with a callback waits for everything queued before it.
process.exitCode = code;
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
