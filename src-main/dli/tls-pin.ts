/**
 * HTTPS trust on first use. Controllers serve self-signed certificates, so the usual CA check cannot
 * work; instead each connection checks the certificate's SHA-256 fingerprint against the one the person
 * accepted for this controller. There is deliberately no switch that accepts any certificate.
 */
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

/** An undici dispatcher for one controller: one connection, and a fingerprint check on every TLS handshake. */
export function createDispatcher(options: DispatcherOptions): Agent {
  const pinned = options.fingerprint ? normalizeFingerprint(options.fingerprint) : null;
  // Session resumption is off so every connection presents (and we check) the certificate again.
  const tlsConnect = buildConnector({ rejectUnauthorized: false, maxCachedSessions: 0 });
  return new Agent({
    connections: 1,
    maxHeaderSize: MAX_HEADER_BYTES,
    connect(connectOptions, callback) {
      tlsConnect(connectOptions, (error, socket) => {
        if (error || !socket) return callback(error ?? new Error('connection failed'), null);
        if (connectOptions.protocol !== 'https:') return callback(null, socket);
        const certificate = (socket as TLSSocket).getPeerCertificate();
        const seen = certificate?.fingerprint256 ? normalizeFingerprint(certificate.fingerprint256) : '';
        if (seen) options.onCertificate?.(seen);
        const refusal = pinRefusal(seen, pinned, options.controller);
        if (refusal) {
          socket.destroy();
          return callback(refusal, null);
        }
        callback(null, socket);
      });
    },
  });
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
