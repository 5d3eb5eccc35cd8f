/** `npm run --silent cli -- [global options] <command>`: see program.ts. */
import { runCli } from './program';

process.exitCode = await runCli(process.argv.slice(2), {
  out: process.stdout,
  err: process.stderr,
  in: process.stdin,
  env: process.env,
});
