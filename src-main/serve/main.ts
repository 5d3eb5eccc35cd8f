/**
 * `plugboard serve`: the Core as a service. Prints where each listener is and `Ready.`; stops cleanly
 * on SIGTERM or SIGINT (exit 0). Flag mistakes exit 2, a start that fails exits 1.
 */
import { consoleLogger } from '../shared/logging';
import { appVersion } from '../shared/app-root';
import { errorSentence, isPlugboardError } from '../shared/errors';
import { parseServeArgs, SERVE_USAGE, UsageError } from './options';
import { startService } from './service';

export async function runServe(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let config;
  try {
    config = await parseServeArgs(args, env);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    console.error(`plugboard serve: ${error.message}\n\n${SERVE_USAGE}`);
    return 2;
  }
  if (config.help) {
    console.log(SERVE_USAGE);
    return 0;
  }
  const log = consoleLogger('[plugboard serve]');
  let stopRequested: (reason: string) => void = () => undefined;
  const stopped = new Promise<string>((resolve) => (stopRequested = resolve));
  const onSignal = (signal: NodeJS.Signals) => stopRequested(signal);
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  let service;
  try {
    service = await startService(config, {
      version: appVersion(),
      log,
      env,
      onLockLost: (error) => {
        log(`The Core lock was lost (${error.message}): stopping, so that two Cores never run at once.`);
        stopRequested('lock lost');
      },
    });
  } catch (error) {
    console.error(
      `plugboard serve: ${isPlugboardError(error) ? errorSentence(error) : (error as Error).message}`,
    );
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    return 1;
  }
  for (const line of service.lines) console.log(line);
  console.log('Ready.');
  const reason = await stopped;
  console.log(`${reason}: stopping (requests under way may finish).`);
  try {
    await service.close();
  } catch (error) {
    log('The service did not stop cleanly', error);
    return 1;
  }
  console.log('Stopped.');
  return reason === 'lock lost' ? 1 : 0;
}
