/**
 * The remote link on the `api` listener: `GET /api/v1/link` upgraded to a WebSocket speaking the link
 * protocol (src-main/link/wire.ts), so a CLI on another machine (`plugboard --service URL`) acts through
 * this service's Core. It always needs a bearer token or a signed-in session, even from loopback, and
 * every call acts as `{door: 'cli', who: <the token's or account's name>}` with its role (and an
 * account's scope), whatever `actor` the client names: it is open to every role, and the Core checks
 * each call (an observer reads, an operator also switches).
 * The listener's guards (allowlist, Host check, connection cap) apply to the upgrade as to every request.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { REMOTE_LINK_PATH } from '../link/wire';
import { WINDOW_SOCKET_PATH } from '../web/socket-protocol';
import type { ListenerContext } from './listener';
import { createLinkBridge, offersLinkProtocol, refuseUpgrade, type LinkBridge } from './link-bridge';
import { clientAllowed, hostAllowed } from './network';
import { bearerCaller, bearerSecret, sessionCaller } from './sessions';

/** A remote caller sends calls, not snapshots: 1 MiB is far above any call's input. */
const MAX_REMOTE_CALL = 1024 * 1024;

export function attachRemoteLink(server: Server, context: ListenerContext): LinkBridge {
  const bridge = createLinkBridge(context.core, context.log, { maxPayload: MAX_REMOTE_CALL });
  const name = context.spec.name;
  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => undefined);
    const refuse = (status: number, reason: string, code: string, message: string, headers = {}): void => {
      context.metrics.error(name, code);
      context.metrics.request(name, status);
      refuseUpgrade(socket, status, reason, { code, message }, headers);
    };
    const path = (request.url ?? '').split('?')[0];
    if (path !== REMOTE_LINK_PATH) {
      // The window's socket is the web window's to take (api-window.ts).
      if (path !== WINDOW_SOCKET_PATH || !context.webWindow)
        refuse(404, 'Not Found', 'NOT_FOUND', `Only ${REMOTE_LINK_PATH} speaks WebSocket here.`);
      return;
    }
    if (!clientAllowed(request.socket.remoteAddress, context.allow)) {
      refuse(
        403,
        'Forbidden',
        'FORBIDDEN',
        'Refused: your address is not in the client networks this listener allows (--allow).',
      );
      return;
    }
    if (!hostAllowed(request.headers.host, context.hostNames)) {
      refuse(
        403,
        'Forbidden',
        'FORBIDDEN',
        "Refused: the Host is not this machine's address or a name given with --host-name.",
      );
      return;
    }
    if (context.tokens.length === 0 && !context.core.accounts) {
      refuse(
        403,
        'Forbidden',
        'FORBIDDEN',
        'The remote link needs a token: start `plugboard serve` with --token-file (or the credential plugboard.tokens).',
      );
      return;
    }
    if (!offersLinkProtocol(request)) {
      refuse(400, 'Bad Request', 'BAD_INPUT', 'Offer the WebSocket subprotocol plugboard.core.v1.');
      return;
    }
    // A token is known at once; a session is read from the lab store (revoked or expired: refused).
    void bearerCaller(request, context, 'cli').then(
      (caller) => {
        if (caller === null) {
          refuse(
            401,
            'Unauthorized',
            'AUTH_FAILED',
            'The remote link needs one of the service\'s tokens, or a session from POST /api/v1/sign-in, as "Authorization: Bearer <secret>".',
            {
              'WWW-Authenticate': 'Bearer realm="plugboard"',
            },
          );
          return;
        }
        context.metrics.request(name, 101);
        const frozen = Object.freeze(caller);
        const secret = bearerSecret(request);
        // A token is the token for the link's life; a session is read again at each call, so one
        // signed out, revoked or expired, or an account disabled, ends the link at its next call.
        const session = caller.credential === undefined && secret !== null;
        bridge.accept(
          request,
          socket,
          head,
          session ? () => sessionCaller(context, secret, 'cli') : () => frozen,
        );
      },
      (error: unknown) => {
        context.log('remote link: could not check the session', error);
        refuse(503, 'Service Unavailable', 'STORE', 'The service could not check the session; try again.');
      },
    );
  });
  return bridge;
}
