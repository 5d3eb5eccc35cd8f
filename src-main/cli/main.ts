/**
 * The `plugboard` command: `node out/main/plugboard.js …` (the package's `bin`, built by
 * `npx electron-vite build`), or `npm run --silent cli -- …` from the source tree. See program.ts.
 */
import { setFlagsFromString } from 'node:v8';
import { runCli } from './program';

// undici parses HTTP with llhttp compiled to WebAssembly. After a few answers V8 starts optimising the
// parser (TurboFan, on a background thread), which takes longer than the whole command, and Node's exit
// waits for it: about 60 ms of every call, for code the process never runs. A command is over after a
// handful of small answers, so it keeps the baseline compiler's code (Liftoff) for WebAssembly. Set
// before the first connection compiles the parser; it changes only how fast the parser runs.
setFlagsFromString('--liftoff-only');

// A command whose work waits on nothing that keeps Node running (only unref'd timers) ends with the event
// loop; such a run was seen to exit 0 with nothing printed (an exit hook of a dependency), a false
// success. Say so and fail instead.
let finished = false;
process.once('beforeExit', () => {
  if (finished) return;
  process.stderr.write(
    'plugboard: the command stopped before it finished (a Plugboard bug); nothing is known of its result.\n',
  );
  process.exit(1);
});

const code = await runCli(process.argv.slice(2), {
  out: process.stdout,
  err: process.stderr,
  in: process.stdin,
  env: process.env,
  signals: process,
});
// The command is finished once runCli resolves: exit as soon as what it printed is flushed, rather than
// waiting for idle keep-alive sockets and timers to wind down (about 0.1 s a call, most of a short
// command's wall time). Writing '' with a callback waits for everything queued before it.
finished = true;
process.exitCode = code;
process.stdout.write('', () => process.stderr.write('', () => process.exit(code)));
