import { PlugboardError } from './errors';

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

/**
 * The one saved form of a controller's address: `http[s]://host[:port]`, lower-case host, no default
 * port, no path, no trailing slash. A bare host (`192.168.0.100`) means http, as on the unit's label.
 * Credentials in the address are refused so they can never end up in the settings file.
 */
export function normaliseControllerUrl(input: string): string {
  const text = input.trim();
  if (!text)
    throw new PlugboardError(
      'BAD_INPUT',
      'The controller address is empty: type one like http://192.168.0.100.',
    );
  let url: URL;
  try {
    url = new URL(SCHEME.test(text) ? text : `http://${text}`);
  } catch {
    throw new PlugboardError(
      'BAD_INPUT',
      `"${text.slice(0, 80)}" is not an address: type one like http://192.168.0.100 or https://pdu-3.lab:8443.`,
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PlugboardError(
      'BAD_INPUT',
      `The controller address must start with http:// or https://, not ${url.protocol}//.`,
    );
  }
  if (url.username || url.password) {
    throw new PlugboardError(
      'BAD_INPUT',
      'Leave the user name and password out of the address; enter them in the login fields instead.',
    );
  }
  if (!url.hostname)
    throw new PlugboardError('BAD_INPUT', `"${text.slice(0, 80)}" has no host name or IP address.`);
  return `${url.protocol}//${url.host}`;
}

/** `host:port` with the scheme's default port filled in: two addresses reach the same controller iff equal. */
export function hostPortKey(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  return `${parsed.hostname.toLowerCase()}:${port}`;
}

/** The host of a saved-form address, without IPv6 brackets (what name resolution takes). */
export function addressHost(url: string): string {
  return new URL(url).hostname.toLowerCase().replace(/^\[(.*)\]$/, '$1');
}

/**
 * Whether two addresses on one host reach the same unit by their ports: the same port (the scheme's
 * default filled in), or http's 80 and https's 443, which a unit serves side by side.
 */
export function samePortsOfUnit(a: string, b: string): boolean {
  const port = (url: string) => {
    const parsed = new URL(url);
    return parsed.port || (parsed.protocol === 'https:' ? '443' : '80');
  };
  const pa = port(a);
  const pb = port(b);
  const web = new Set(['80', '443']);
  return pa === pb || (web.has(pa) && web.has(pb));
}

/** A SHA-256 fingerprint as upper-case hex pairs separated by colons, the way the UI shows it. */
export function normaliseFingerprint(input: string): string {
  const hex = input.trim().replace(/:/g, '');
  if (!/^[0-9a-fA-F]{64}$/.test(hex)) {
    throw new PlugboardError(
      'BAD_INPUT',
      'The certificate fingerprint must be a SHA-256 fingerprint: 64 hexadecimal digits, optionally in pairs separated by colons.',
    );
  }
  return hex.toUpperCase().match(/../g)!.join(':');
}
