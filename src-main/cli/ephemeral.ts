/**
 * A command on a unit given by address (--url or PLUGBOARD_URL) that no saved controller has: a one-off
 * Core in this process (the Core's `createEphemeralCore`), the unit its only controller, the login in
 * memory, nothing saved. The command then runs exactly as on a saved controller: the same calls, the
 * same checks before anything is sent (critical outlets), the same answers and exit codes.
 *
 * Loaded lazily (core-route.ts): neither the config folder's libraries nor the keychain's are loaded.
 */
import { appVersion } from '../shared/app-root';
import type { ControllerSummary } from '../../src-preload/model';
import { createEphemeralCore } from '../core/index';
import type { CommandContext } from './command-context';
import { checkedFingerprint, checkedUrl, requiredCredentials, urlSource } from './connect';
import { accessOver, type CoreAccess } from './core-link';
import { UsageError } from './io';

/** Run `work` with a one-off Core over the unit at --url, and always close it. */
export async function withEphemeralController(
  context: CommandContext,
  work: (core: CoreAccess, controller: ControllerSummary) => Promise<void>,
): Promise<void> {
  const { options, terminal } = context;
  const typed = options.url ?? terminal.io.env.PLUGBOARD_URL;
  if (!typed)
    throw new UsageError('Say which controller: --url http://host, --controller NAME, or set PLUGBOARD_URL.');
  const url = checkedUrl(typed, urlSource(options));
  const fingerprint = checkedFingerprint(options.acceptFingerprint);
  const credentials = await requiredCredentials(options, terminal);
  const { core, controller } = await createEphemeralCore(
    {
      shell: 'cli',
      version: appVersion(),
      log: (message) => terminal.warn(`plugboard: ${message}`),
    },
    credentials.kind === 'token'
      ? { url, auth: 'token', user: '', secret: credentials.token, fingerprint }
      : { url, auth: 'digest', user: credentials.user, secret: credentials.password, fingerprint },
  );
  const access = accessOver(
    {
      // This OS user, on a unit it logged in to itself: an administrator of this Core, as in the window.
      handlersAs: (who) => core.handlersAs({ ...who, role: 'admin' }),
      subscribe: (sink) => core.subscribe(sink),
      close: () => core.dispose(),
    },
    true,
    context,
  );
  try {
    await work(access, controller);
  } finally {
    await access.close();
  }
}
