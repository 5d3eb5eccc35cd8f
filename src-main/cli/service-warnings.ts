/**
 * Warnings before the CLI hands its service token to a `plugboard serve` (`--service URL`): a token
 * typed on the command line is in the process list for every user of this machine, and one sent to
 * another machine over plain HTTP crosses the network in clear, like --password does.
 */

/** What the warnings need of the lookup: where, and how the token was given. */
export interface ServiceTokenUse {
  url: string | undefined;
  /** A token will be sent (--service-token, PLUGBOARD_SERVICE_TOKEN or --service-token-file). */
  sendsToken: boolean;
  /** It was typed as --service-token. */
  tokenOnCommandLine: boolean;
}

/** The warnings to print, each a sentence with what to do instead. */
export function serviceTokenWarnings(use: ServiceTokenUse): string[] {
  const warnings: string[] = [];
  if (use.tokenOnCommandLine)
    warnings.push(
      '--service-token is visible to every user of this machine in the process list; use PLUGBOARD_SERVICE_TOKEN or --service-token-file (chmod 600) instead.',
    );
  // A lab's standby services arrive as a comma list: each plain-HTTP one is named.
  for (const url of (use.url ?? '').split(',').map((one) => parsed(one.trim()))) {
    if (use.sendsToken && url?.protocol === 'http:' && !loopback(url.hostname))
      warnings.push(
        `--service ${url.origin} is plain HTTP: the token crosses the network in clear, and anyone on the way can read it and act with it. Use the service's https:// address (with --service-fingerprint), or reach it through \`ssh -L\`.`,
      );
  }
  return warnings;
}

function parsed(url: string | undefined): URL | null {
  try {
    return url === undefined ? null : new URL(url);
  } catch {
    return null;
  }
}

/** Whether `hostname` is this machine (a name or address of the loopback). */
export function loopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}
