/**
 * HTTPS trust on first use. Controllers serve self-signed certificates, so the usual CA check cannot
 * work; instead each connection checks the certificate's SHA-256 fingerprint against the one the person
 * accepted for this controller. There is deliberately no switch that accepts any certificate.
 */
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { Agent, buildConnector } from 'undici';
import { PlugboardError } from '../shared/errors';

/** Upper-case hex pairs joined by colons, the form Node and browsers print. */
export function normalizeFingerprint(fingerprint: string): string {
  const hex = fingerprint.replace(/[^0-9a-f]/gi, '').toUpperCase();
  return hex.match(/.{1,2}/g)?.join(':') ?? '';
}

export function isFingerprint(text: string): boolean {
  return /^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$/.test(text.trim());
}

export interface DispatcherOptions {
  /** Pinned fingerprint for HTTPS; null = first use (every HTTPS connection is refused with TLS_UNTRUSTED). */
  fingerprint: string | null;
  /** How messages name the controller. */
  controller: string;
  /** Told the fingerprint of every certificate seen. */
  onCertificate?: (fingerprint: string) => void;
}

/** Some units send very many headers (one `Link` per element of a 207 answer); allow far more than 16 KiB. */
const MAX_HEADER_BYTES = 1024 * 1024;

/**
 * TLS sessions this dispatcher may resume, by host and port. A session enters only from a socket whose
 * full handshake passed the pin check, so resuming one is as safe as that handshake: a server can only
 * resume it if it holds that session's secret. Units that close every connection (reference §13) then
 * pay one full handshake, not one per request; a unit that does not resume just does full handshakes,
 * each checked, as before.
 */
class PinnedSessions {
  readonly #sessions = new Map<string, Buffer>();

  get(key: string): Buffer | undefined {
    return this.#sessions.get(key);
  }

  /** Keep this socket's current and later sessions (call only once its certificate passed the pin). */
  follow(key: string, socket: TLSSocket): void {
    const current = socket.getSession();
    if (current) this.#sessions.set(key, current);
    socket.on('session', (session: Buffer) => this.#sessions.set(key, session));
  }

  forget(key: string): void {
    this.#sessions.delete(key);
  }
}

/**
 * An undici Agent that knows the sockets its connector opened. `close()` resolves once no request is
 * left, but a connection still being made (a TLS handshake for a request that was aborted meanwhile) is
 * handed over, and destroyed, only after that: `dropSockets()` ends those at once, so a stopped
 * controller's client leaves nothing open behind it.
 */
export class ControllerAgent extends Agent {
  readonly #sockets = new Set<Socket>();
  #closed = false;

  /**
   * Called by the connector for each socket it opens. Once closed, a socket opened anyway is destroyed
   * at once: a unit that ends every connection (`Connection: close`) makes undici's client resume when
   * that socket closes, and a connect it starts then would otherwise outlive the client.
   */
  track(socket: Socket | undefined | void): void {
    if (!socket) return;
    if (this.#closed) {
      socket.destroy(closedError());
      return;
    }
    this.#sockets.add(socket);
    socket.once('close', () => this.#sockets.delete(socket));
  }

  /** Close, then destroy any socket the connector opened that is still open, or opens from now on. */
  async closeAll(): Promise<void> {
    await this.close();
    this.#closed = true;
    // With an error, so the connector's callback runs and clears its connect timeout (a plain destroy()
    // leaves that timer running for its full 10 s).
    for (const socket of this.#sockets) socket.destroy(closedError());
    this.#sockets.clear();
  }
}

function closedError(): Error {
  return new Error('The controller client was closed.');
}

/** An undici dispatcher for one controller: one connection, and a fingerprint check on every TLS handshake. */
export function createDispatcher(options: DispatcherOptions): ControllerAgent {
  const pinned = options.fingerprint ? normalizeFingerprint(options.fingerprint) : null;
  const sessions = new PinnedSessions();
  // undici's own session cache stays off (it would keep sessions before the pin check); ours keeps only
  // sessions of pinned handshakes, handed to one connector per connection.
  const plainConnect = buildConnector({ rejectUnauthorized: false, maxCachedSessions: 0 });
  const agent: ControllerAgent = new ControllerAgent({
    connections: 1,
    maxHeaderSize: MAX_HEADER_BYTES,
    connect(connectOptions, callback) {
      if (connectOptions.protocol !== 'https:') {
        agent.track(plainConnect(connectOptions, callback) as Socket | undefined);
        return;
      }
      const key = `${connectOptions.hostname}:${connectOptions.port}`;
      const session = pinned === null ? undefined : sessions.get(key);
      const tlsConnect = session
        ? buildConnector({ rejectUnauthorized: false, maxCachedSessions: 0, session })
        : plainConnect;
      const opened = tlsConnect(connectOptions, (error, socket) => {
        if (error || !socket) {
          sessions.forget(key);
          return callback(error ?? new Error('connection failed'), null);
        }
        const tls = socket as TLSSocket;
        const certificate = tls.getPeerCertificate();
        const seen = certificate?.fingerprint256 ? normalizeFingerprint(certificate.fingerprint256) : '';
        if (seen) options.onCertificate?.(seen);
        // A resumed session may show no certificate: it stands on the pinned handshake it resumed.
        const resumedPinned = !seen && session !== undefined && tls.isSessionReused();
        const refusal = resumedPinned ? null : pinRefusal(seen, pinned, options.controller);
        if (refusal) {
          sessions.forget(key);
          socket.destroy();
          return callback(refusal, null);
        }
        sessions.follow(key, tls);
        callback(null, socket);
      });
      agent.track(opened as Socket | undefined);
    },
  });
  return agent;
}

function pinRefusal(seen: string, pinned: string | null, controller: string): PlugboardError | null {
  if (!seen) {
    return new PlugboardError('DEVICE_ERROR', `${controller} presented no certificate over HTTPS.`);
  }
  if (pinned === null) {
    return new PlugboardError(
      'TLS_UNTRUSTED',
      `${controller} uses a certificate Plugboard has not seen before (SHA-256 ${seen}).`,
      { fingerprint: seen },
      { action: "Compare it with the controller's and accept it to connect." },
    );
  }
  if (seen !== pinned) {
    return new PlugboardError(
      'TLS_CHANGED',
      `The HTTPS certificate of ${controller} changed (now SHA-256 ${seen}, accepted ${pinned}).`,
      { fingerprint: seen, pinned },
      {
        action:
          'If the controller was reset or got a new certificate, check and accept the new fingerprint; otherwise someone may be intercepting the connection.',
      },
    );
  }
  return null;
}
