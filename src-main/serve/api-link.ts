/**
 * The remote link on the `api` listener: `GET /api/v1/link` upgraded to a WebSocket speaking the link
 * protocol (src-main/link/wire.ts), so a CLI on another machine (`plugboard --service URL`) or a desk
 * (src-main/desk) acts through this service's Core. It always needs a bearer token or a signed-in
 * session, even from loopback, and every call acts as the token's or account's name with its role (and
 * an account's scope), whatever `who` the client names; the door is the call's `actor.door` when it is
 * `window` or `tray` (a desk's window and tray), else `cli`. It is open to every role, and the Core
 * checks each call (an observer reads, an operator also switches).
 *
 * A session ends its links: each call reads it again (signed out, revoked, expired or its account
 * disabled: answered AUTH_FAILED and closed), and a link that only listens is closed as soon as the
 * accounts change (every sign-out and every administrator's change is an entry of the lab service in
 * the activity log), so a revoked desk stops hearing the lab's events too.
 * The listener's guards (allowlist, Host check, connection cap) apply to the upgrade as to every request.
 */
import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { ActivityDoor, ActivityEntry } from '../../src-preload/model';
import type { WebSocket } from 'ws';
import { REMOTE_LINK_PATH, type LinkCall } from '../link/wire';
import { WINDOW_SOCKET_PATH } from '../web/socket-protocol';
import type { ListenerContext } from './listener';
import { createLinkBridge, offersLinkProtocol, refuseUpgrade, type LinkBridge } from './link-bridge';
import { clientAllowed, hostAllowed } from './network';
import { bearerCaller, bearerSecret, sessionCaller } from './sessions';

/** A remote caller sends calls, not snapshots: 1 MiB is far above any call's input. */
const MAX_REMOTE_CALL = 1024 * 1024;

/** A desk's window and tray keep their door; anything else on the remote link is the command line. */
function doorOf(call: LinkCall): ActivityDoor {
  const door = call.actor?.door;
  return door === 'window' || door === 'tray' ? door : 'cli';
}

export function attachRemoteLink(server: Server, context: ListenerContext): LinkBridge {
  const bridge = createLinkBridge(context.core, context.log, { maxPayload: MAX_REMOTE_CALL });
  const name = context.spec.name;
  const sessions = watchSessions(context, (ws) => bridge.endSession(ws));
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
          session
            ? (call) => sessionCaller(context, secret, doorOf(call))
            : (call) => ({ ...frozen, door: doorOf(call) }),
          session ? (ws) => sessions.track(ws, secret) : undefined,
        );
      },
      (error: unknown) => {
        context.log('remote link: could not check the session', error);
        refuse(503, 'Service Unavailable', 'STORE', 'The service could not check the session; try again.');
      },
    );
  });
  return {
    ...bridge,
    close: async (graceMs) => {
      sessions.stop();
      await bridge.close(graceMs);
    },
  };
}

/**
 * The links opened with a session, closed when it ends: after each change of the accounts (an entry of
 * the lab service in the activity log) every such link's session is read again.
 */
function watchSessions(
  context: ListenerContext,
  end: (ws: WebSocket) => void,
): {
  track(ws: WebSocket, secret: string): void;
  stop(): void;
} {
  const open = new Map<WebSocket, string>();
  let checking: Promise<void> | null = null;
  let again = false;
  const check = async (): Promise<void> => {
    do {
      again = false;
      for (const [ws, secret] of [...open]) {
        const caller = await sessionCaller(context, secret, 'cli').catch(() => undefined);
        if (caller === null) {
          open.delete(ws);
          end(ws);
        }
      }
    } while (again);
  };
  const stop = context.core.subscribe((event, payload) => {
    if (event !== 'activity/added' || (payload as ActivityEntry).controllerId !== '' || open.size === 0)
      return;
    if (checking) {
      again = true;
      return;
    }
    checking = check().finally(() => (checking = null));
  });
  return {
    track(ws, secret) {
      open.set(ws, secret);
      ws.once('close', () => open.delete(ws));
    },
    stop,
  };
}
