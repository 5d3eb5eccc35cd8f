import { parseArgs } from 'node:util';
import { errorSentence, isPlugboardError } from '../shared/errors';
import { startWebShell } from './server';

const usage = `Usage: npm run web -- [--port N] [--demo]

Serves Plugboard's window to a browser on 127.0.0.1 only, at an address with a token that changes
every run.

  --port N   listen on port N (default: any free port)
  --demo     throwaway run with a few demo controllers (software emulators on 127.0.0.1):
             nothing is read from or saved to Plugboard's settings or the keychain
  --help     show this text`;

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

function parsePort(text: string | undefined): number {
  if (text === undefined) return 0;
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65_535)
    fail(`--port must be a whole number from 0 to 65535, not ${JSON.stringify(text)}.`);
  return port;
}

async function main(): Promise<void> {
  let values: { port?: string; demo?: boolean; help?: boolean };
  try {
    ({ values } = parseArgs({
      options: { port: { type: 'string' }, demo: { type: 'boolean' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    fail((error as Error).message);
  }
  if (values.help) {
    console.log(usage);
    return;
  }
  const port = parsePort(values.port);
  const shell = await startWebShell({ port, demo: values.demo ?? false }).catch(
    (error: NodeJS.ErrnoException) => {
      if (error.code === 'EADDRINUSE')
        fail(
          `Port ${port} on 127.0.0.1 is already in use. Choose another with --port, or leave it out for any free port.`,
        );
      console.error(isPlugboardError(error) ? errorSentence(error) : error.message);
      process.exit(1);
    },
  );
  if (shell.note) console.log(shell.note);
  console.log(`Plugboard web shell: ${shell.url}`);
  console.log(
    values.demo
      ? 'Demo mode: demo controllers are running; nothing is saved. Press Ctrl+C to stop.'
      : 'Press Ctrl+C to stop.',
  );

  let stopping = false;
  const stop = (signal: NodeJS.Signals | null, reason = `\n${signal}: stopping the web shell.`) => {
    if (stopping) return;
    stopping = true;
    (signal ? console.log : console.error)(reason);
    shell.close().then(
      () => process.exit(signal ? 0 : 1),
      (error: unknown) => {
        console.error('The web shell did not stop cleanly', error);
        process.exit(1);
      },
    );
  };
  // `on`, not `once`: a library's exit hook (when-exit, under conf) raises the signal again after its
  // own clean-up, which would end the process before the Core lock is released.
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
  void shell.coreGone.then((reason) => stop(null, reason));
}

await main();
