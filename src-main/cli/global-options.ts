/** The options every command accepts: before the command name, or after a leaf command's name. */
import { Option, type Command } from 'commander';

export function globalOptions(): Option[] {
  return [
    new Option('--url <url>', 'controller address, http[s]://host[:port] (env PLUGBOARD_URL)'),
    new Option('--controller <name>', 'a saved controller (see: controllers list)'),
    new Option('--user <name>', 'user name (env PLUGBOARD_USER; default admin)'),
    new Option(
      '--password <password>',
      'password (env PLUGBOARD_PASSWORD); every user of the machine can read it in the process list: prefer --password-stdin, the variable, or a saved controller (keychain)',
    ),
    new Option('--password-stdin', 'read the password from the first line of standard input'),
    new Option('--token <token>', 'access token <client_id>.<secret> instead of a password'),
    new Option('--json', 'machine-readable output on stdout'),
    new Option(
      '--accept-fingerprint <sha256>',
      "trust this HTTPS certificate fingerprint (the controller's self-signed certificate)",
    ),
    new Option(
      '--service <url>',
      'use the running `plugboard serve` at this address instead of the units (env PLUGBOARD_SERVICE); repeat it or give a comma list for a lab with standby services: the first that answers is used, and a change a standby refuses goes to the leader it names; without it, one running on this machine is used when found',
    ).argParser(repeated),
    new Option(
      '--service-token <token>',
      "the service's bearer token (env PLUGBOARD_SERVICE_TOKEN, which the process list does not show); --token is a controller's access token",
    ),
    new Option(
      '--service-token-file <path>',
      "read the service's bearer token from the first line of this file (instead of --service-token)",
    ),
    new Option(
      '--service-fingerprint <sha256>',
      "the SHA-256 fingerprint of an https --service's certificate, as `plugboard serve` printed it (env PLUGBOARD_SERVICE_FINGERPRINT); one for every --service address, or one per address in the same order",
    ).argParser(repeated),
    new Option(
      '--reuse-secret',
      'with --controller: send the saved password even though --user or --accept-fingerprint changed where it goes',
    ),
  ];
}

/** A repeated option arrives as one comma list (`--service A --service B` is `--service A,B`). */
function repeated(value: string, previous: string | undefined): string {
  return previous === undefined ? value : `${previous},${value}`;
}

/** Leaf commands accept the global options after their name too (`outlets --json`); hidden from their help. */
export function leaf(command: Command, except: readonly string[] = []): Command {
  for (const option of globalOptions()) {
    if (!except.includes(option.long ?? '')) command.addOption(option.hideHelp());
  }
  return command.addHelpText(
    'after',
    '\nGlobal options (--url, --controller, --user, --password, --password-stdin, --token, --json,\n--accept-fingerprint, --service, --service-token, --service-token-file, --service-fingerprint,\n--reuse-secret) go before the command, or after it:\nsee plugboard --help.',
  );
}
