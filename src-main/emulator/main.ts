import { parseCli } from './cli';
import { type RunningEmulator, startEmulator } from './index';

/** `npm run emulator -- [options]`: one line per controller, then runs until SIGINT/SIGTERM. */
async function main(): Promise<void> {
  const parsed = parseCli(process.argv.slice(2));
  if (!parsed.ok) {
    (parsed.exitCode === 0 ? process.stdout : process.stderr).write(parsed.output);
    process.exit(parsed.exitCode);
  }
  const running: RunningEmulator[] = [];
  let closingSince = 0;
  const shutdown = async (code: number): Promise<void> => {
    // A terminal signals the whole group, so the same signal may arrive twice at once (directly and
    // relayed by tsx); only a later one means "stop now".
    if (closingSince > 0) {
      if (Date.now() - closingSince > 2000) process.exit(code);
      return;
    }
    closingSince = Date.now();
    await Promise.allSettled(running.map((emulator) => emulator.close()));
    process.exit(code);
  };
  process.on('SIGINT', () => void shutdown(0));
  process.on('SIGTERM', () => void shutdown(0));

  for (const options of parsed.controllers) {
    try {
      const emulator = await startEmulator(options);
      running.push(emulator);
      process.stdout.write(`listening on ${emulator.url}/restapi/\n`);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      const where = `${options.host}:${options.port}`;
      const reason = code === 'EADDRINUSE' ? 'the address is in use' : (error as Error).message;
      process.stderr.write(`emulator: cannot listen on ${where}: ${reason}\n`);
      await shutdown(1);
      return;
    }
  }
}

void main();
