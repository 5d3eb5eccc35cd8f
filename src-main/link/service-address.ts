/**
 * A lab service's address as a client keeps it: the `api` listener's URL and the certificate
 * fingerprint it is pinned by. The CLI's `--service` list (cli/service-list.ts) and a desk's labs
 * (src-main/desk) both hold their services this way, so a session kept under one is found by the other.
 */

/** One service's address, and its certificate's SHA-256 fingerprint when the person gave one. */
export interface ServiceAddress {
  /** As typed, trimmed (http[s]://host:port). */
  url: string;
  fingerprint: string | undefined;
}

/** The origin of an address (scheme, host, port), or null when it is not a URL: how two addresses compare. */
export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
