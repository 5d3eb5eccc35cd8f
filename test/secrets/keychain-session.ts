/**
 * A real Secret Service for tests: gnome-keyring in a private `dbus-run-session` whose files live in a
 * temporary HOME, so nothing touches the machine's keyring. Clients reach it through the session's bus
 * address (DBUS_SESSION_BUS_ADDRESS): keytar in the test process, or any child given that variable.
 *
 * The `system` project starts one unlocked session per run (keychain-global-setup.ts) and provides its
 * bus address; tests take it with sharedKeychain (shared-keychain.ts). A test about the keychain's own
 * condition (locked, no login keyring, no Secret Service) starts a session of its own with this.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The bus address of the run's shared unlocked keychain, or why there is none. */
    keychain: { bus: string } | { problem: string };
  }
}

export interface KeychainSession {
  /** DBUS_SESSION_BUS_ADDRESS of the session's bus. */
  bus: string;
  /** End the session: its bus and gnome-keyring go with it. */
  stop(): Promise<void>;
}

export interface KeychainSessionOptions {
  /**
   * `unlocked` (default): a login keyring unlocked with a password; `locked`: gnome-keyring started
   * without one, so a login keyring already on disk stays locked and none is created; `none`: a bare
   * bus without gnome-keyring.
   */
  keyring?: 'unlocked' | 'locked' | 'none';
  /** A dbus-daemon configuration file for the session's bus (default: the system's session config). */
  busConfig?: string;
}

const START = {
  unlocked: 'echo -n pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null; ',
  locked: 'gnome-keyring-daemon --components=secrets >/dev/null; ',
  none: '',
} as const;

/** The environment gnome-keyring keeps its files under: everything inside `home`. */
export function keyringHome(home: string): NodeJS.ProcessEnv {
  return { HOME: home, XDG_DATA_HOME: path.join(home, 'data'), DISPLAY: '' };
}

/**
 * Start a private bus (and gnome-keyring, unless `none`) whose keyring files live under `home`. Resolves
 * once the keyring answers on the bus; `stop` ends the session.
 */
export function startKeychainSession(
  home: string,
  options: KeychainSessionOptions = {},
): Promise<KeychainSession> {
  // `cat` keeps the session open until stop() closes its standard input.
  const script = `${START[options.keyring ?? 'unlocked']}echo "BUS $DBUS_SESSION_BUS_ADDRESS"; exec cat >/dev/null`;
  const config = options.busConfig ? [`--config-file=${options.busConfig}`] : [];
  const session = spawn('dbus-run-session', [...config, '--', 'sh', '-c', script], {
    env: { ...process.env, ...keyringHome(home) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  // dbus-daemon and gnome-keyring talk on stderr (no display for a prompter, fd limits): kept for a
  // failure message only.
  let errors = '';
  session.stderr.setEncoding('utf8').on('data', (chunk: string) => (errors = (errors + chunk).slice(-4000)));
  const closed = new Promise<void>((resolve) => session.once('close', () => resolve()));
  const stop = async (): Promise<void> => {
    if (session.exitCode === null && session.signalCode === null) session.stdin.end();
    await closed;
  };
  return new Promise((resolve, reject) => {
    let out = '';
    session.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      const line = out
        .split('\n')
        .slice(0, -1)
        .find((l) => l.startsWith('BUS '));
      if (line) resolve({ bus: line.slice('BUS '.length).trim(), stop });
    });
    session.on('error', reject);
    void closed.then(() =>
      reject(new Error(`the keychain session ended before it started: ${out}${errors}`)),
    );
  });
}
