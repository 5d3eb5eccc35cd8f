import { PlugboardError } from '../shared/errors';

type Operation = 'read' | 'store' | 'delete';

const verbs: Record<Operation, string> = {
  read: 'read a password from',
  store: 'save a password in',
  delete: 'remove a password from',
};

function linuxHint(raw: string): string | null {
  if (/not provided by any \.service files|ServiceUnknown|org\.freedesktop\.secrets/i.test(raw)) {
    return 'No Secret Service is running. Install and start one, e.g. GNOME Keyring (`sudo apt install gnome-keyring`) or KeePassXC with its Secret Service integration, then try again.';
  }
  if (
    /autolaunch D-Bus|address is empty|Could not connect|DBUS_SESSION_BUS_ADDRESS|Failed to connect to socket/i.test(
      raw,
    )
  ) {
    return 'There is no D-Bus session bus to reach the keychain through. Run Plugboard inside a desktop session, or start one with `dbus-run-session` together with gnome-keyring-daemon.';
  }
  if (/Object does not exist at path .*\/collection\//i.test(raw)) {
    return 'The keychain has no login keyring yet. Create one (e.g. in "Passwords and Keys", or by logging in to a desktop session once) and try again.';
  }
  if (/locked collection|is locked|prompt/i.test(raw)) {
    return 'The keychain is locked. Unlock your login keyring (e.g. log in to the desktop, or run `gnome-keyring-daemon --unlock`) and try again.';
  }
  if (/libsecret/i.test(raw)) {
    return 'The libsecret library is missing. Install it (`sudo apt install libsecret-1-0`) and restart Plugboard.';
  }
  return null;
}

function platformHint(raw: string): string {
  if (process.platform === 'linux') {
    return (
      linuxHint(raw) ?? 'Check that a Secret Service (GNOME Keyring or KeePassXC) is running and unlocked.'
    );
  }
  if (process.platform === 'darwin')
    return 'Check that your login keychain is unlocked and that Plugboard may use it.';
  if (process.platform === 'win32')
    return 'Check that Windows Credential Manager is available for your account.';
  return 'This system has no supported keychain.';
}

/**
 * Turn whatever keytar (or its native library) threw into an error a person can act on. The raw
 * message goes into `detail` for the log; it never contains the secret itself.
 */
export function keychainError(operation: Operation, error: unknown): PlugboardError {
  const raw = error instanceof Error ? error.message : String(error);
  return new PlugboardError(
    'INTERNAL',
    `Plugboard could not ${verbs[operation]} the system keychain. ${platformHint(raw)}`,
    { keychainError: raw.slice(0, 300) },
    { cause: error },
  );
}

/** The keytar native module did not load at all. */
export function keychainUnavailable(error: unknown): PlugboardError {
  const raw = error instanceof Error ? error.message : String(error);
  const hint =
    process.platform === 'linux'
      ? (linuxHint(raw) ?? 'Install libsecret (`sudo apt install libsecret-1-0`) and reinstall Plugboard.')
      : 'Reinstall Plugboard; its keychain module is missing or damaged.';
  return new PlugboardError(
    'INTERNAL',
    `Plugboard could not load its keychain module. ${hint}`,
    { keychainError: raw.slice(0, 300) },
    { cause: error },
  );
}
