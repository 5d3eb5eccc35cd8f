export interface Recognised {
  /** The digest realm the controller challenged with, e.g. `DLI LPC92601002528`. */
  realm: string;
  /** The serial number from the realm (`DLI <serial>`), when there is one. */
  serial: string | null;
}

export interface RecogniseOptions {
  /** Give up on an address after this long (connect + answer). */
  timeoutMs: number;
  signal?: AbortSignal;
}

/** Every `WWW-Authenticate` value, however the server split them into header lines. */
function challenges(raw: readonly string[]): string[] {
  const values: string[] = [];
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]!.toLowerCase() === 'www-authenticate') values.push(raw[i + 1]!);
  }
  return values;
}

/** The realm of a Digest challenge whose realm starts with "DLI" (scheme matched case-insensitively: units send `DIGEST`). */
export function dliRealm(headerValues: readonly string[]): string | null {
  for (const value of headerValues) {
    const digest = /\bdigest\s+/i.exec(value);
    if (!digest) continue;
    const realm = /\brealm\s*=\s*"([^"]*)"/i.exec(value.slice(digest.index));
    if (realm && /^DLI(\s|$)/.test(realm[1]!)) return realm[1]!;
  }
  return null;
}

/**
 * Ask `GET <url>/restapi/` without credentials and recognise a Digital Loggers controller by its
 * challenge: `401` with `WWW-Authenticate: DIGEST realm="DLI <serial>"`. Null for anything else,
 * including silence, refusal and timeouts. Sends no credentials and reads no body.
 */
export function recogniseController(baseUrl: string, options: RecogniseOptions): Promise<Recognised | null> {
  return new Promise((resolve) => {
    if (options.signal?.aborted) return resolve(null);
    let target: URL;
    try {
      target = new URL('/restapi/', baseUrl);
    } catch {
      return resolve(null);
    }
    const secure = target.protocol === 'https:';
    let settled = false;
    const finish = (value: Recognised | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      request.destroy();
      resolve(value);
    };
    const onAbort = () => finish(null);
    // Taken when a probe runs, not imported: an ES import of node:http loads Node's own fetch for its
    // exports, about 20 ms of the start of every process that loads the Core (each CLI command).
    const client = secure ? process.getBuiltinModule('node:https') : process.getBuiltinModule('node:http');
    const request = client.get(target, {
      agent: false,
      headers: { Accept: 'application/json', 'User-Agent': 'Plugboard discovery' },
      // Only the public challenge header is read and nothing secret is sent, so an unverified
      // certificate is harmless here; the fingerprint is pinned when the controller is added.
      ...(secure ? { rejectUnauthorized: false } : {}),
    });
    const timer = setTimeout(() => finish(null), options.timeoutMs);
    options.signal?.addEventListener('abort', onAbort, { once: true });
    request.on('error', () => finish(null));
    request.on('response', (response) => {
      response.resume();
      const realm = response.statusCode === 401 ? dliRealm(challenges(response.rawHeaders)) : null;
      finish(realm === null ? null : { realm, serial: realm.slice(3).trim() || null });
    });
  });
}
