/**
 * The link protocol's server side (src-main/link/wire.ts), shared by the doors that speak it: the
 * Core's owner-only socket (core-socket.ts) and the `api` listener's remote link (api-link.ts). Each
 * connection is given, when it is accepted, the rule saying whom its calls act for: the owner-only
 * socket trusts the `actor` a call names (as an administrator: the folder's owner); the remote link
 * ignores it and acts as its token's name, with the token's role.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import * as v from 'valibot';
import { WebSocketServer, type RawData, type WebSocket } from 'ws';
import type { Caller } from '../../src-preload/model';
import { dispatch, type Core } from '../core/index';
import { LINK_PROTOCOL, linkCall, MAX_LINK_MESSAGE, SESSION_ENDED_CLOSE, type LinkCall } from '../link/wire';
import type { Logger } from '../shared/logging';

/** Whom a call on a connection acts for, and with which role; null: nobody any more (the link ends). */
export type ActorRule = (call: LinkCall) => Caller | Promise<Caller | null>;

export interface LinkBridge {
  /**
   * Take over an upgrade request already judged acceptable (path, subprotocol, authentication);
   * `opened` is given the link once it is open (to close it when its session ends).
   */
  accept(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    actorFor: ActorRule,
    opened?: (ws: WebSocket) => void,
  ): void;
  /**
   * Close a link whose session ended, once the calls under way on it have answered (each of them reads
   * the session again, and one that finds it ended answers so and closes the link itself).
   */
  endSession(ws: WebSocket): void;
  /** Stop sending events, give calls under way up to `graceMs` to answer, then close every link. */
  close(graceMs: number): Promise<void>;
  /** Drop what is still open (after the server closed). */
  terminate(): void;
}

export interface LinkBridgeOptions {
  /** The largest message a client may send (default MAX_LINK_MESSAGE). */
  maxPayload?: number;
}

/** Whether an upgrade request offers the link subprotocol. */
export function offersLinkProtocol(request: IncomingMessage): boolean {
  return String(request.headers['sec-websocket-protocol'] ?? '')
    .split(',')
    .map((p) => p.trim())
    .includes(LINK_PROTOCOL);
}

/** Refuse an upgrade with an HTTP status and a short JSON error, then close the connection. */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  reason: string,
  error: { code: string; message: string } | null = null,
  headers: Record<string, string> = {},
): void {
  const body = error ? `${JSON.stringify({ error })}\n` : '';
  const lines = [
    `HTTP/1.1 ${status} ${reason}`,
    'Connection: close',
    'Cache-Control: no-store',
    ...(error ? ['Content-Type: application/json; charset=utf-8'] : []),
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join('\r\n')}\r\n\r\n${body}`);
}

export function createLinkBridge(core: Core, log: Logger, options: LinkBridgeOptions = {}): LinkBridge {
  const sockets = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxPayload ?? MAX_LINK_MESSAGE,
    handleProtocols: (offered) => (offered.has(LINK_PROTOCOL) ? LINK_PROTOCOL : false),
  });
  const inFlight = new Set<Promise<void>>();
  const busy = new Map<WebSocket, number>();
  const ending = new Set<WebSocket>();
  const closeEnded = (ws: WebSocket): void => {
    ending.delete(ws);
    if (ws.readyState === ws.OPEN) ws.close(SESSION_ENDED_CLOSE, 'The session ended: sign in again.');
  };
  // Closed only with no call under way on it, so a call the client still waits for was never run.
  const endSession = (ws: WebSocket): void => {
    if (busy.has(ws)) ending.add(ws);
    else closeEnded(ws);
  };
  const stopEvents = core.subscribe((name, payload) => {
    const frame = JSON.stringify({ type: 'event', name, payload });
    for (const ws of sockets.clients) if (ws.readyState === ws.OPEN) ws.send(frame);
  });
  return {
    accept(request, socket, head, actorFor, opened) {
      sockets.handleUpgrade(request, socket, head, (ws) => {
        ws.on('error', () => undefined);
        opened?.(ws);
        ws.on('message', (data: RawData, isBinary: boolean) => {
          const work = answer(ws, core, data, isBinary, actorFor, log, () => endSession(ws));
          inFlight.add(work);
          busy.set(ws, (busy.get(ws) ?? 0) + 1);
          void work.finally(() => {
            inFlight.delete(work);
            const left = (busy.get(ws) ?? 1) - 1;
            if (left > 0) busy.set(ws, left);
            else {
              busy.delete(ws);
              if (ending.has(ws)) closeEnded(ws);
            }
          });
        });
      });
    },
    endSession,
    async close(graceMs) {
      stopEvents();
      const bound = new Promise<void>((resolve) => setTimeout(resolve, graceMs).unref());
      await Promise.race([Promise.allSettled([...inFlight]), bound]);
      for (const ws of sockets.clients) ws.close(1001, 'The Plugboard service is stopping.');
    },
    terminate() {
      for (const ws of sockets.clients) ws.terminate();
    },
  };
}

async function answer(
  ws: WebSocket,
  core: Core,
  data: RawData,
  isBinary: boolean,
  actorFor: ActorRule,
  log: Logger,
  ended: () => void,
): Promise<void> {
  let parsed: v.SafeParseResult<typeof linkCall> | null;
  try {
    parsed = isBinary ? null : v.safeParse(linkCall, JSON.parse(data.toString()));
  } catch {
    parsed = null;
  }
  if (!parsed?.success) {
    ws.close(
      1008,
      'Expected a call: {"type":"call","id":1,"name":"app/info","input":{},"actor":{"door":"cli","who":"me"}}',
    );
    return;
  }
  const call = parsed.output;
  const caller = await actorFor(call);
  if (caller === null) {
    // Answered (nothing was done), then closed: the client tells its person why, not "stopped".
    const endedError = {
      code: 'AUTH_FAILED',
      message: 'The session ended (signed out, revoked, expired, or its account disabled); nothing was done.',
      action: 'Sign in again and use the new token.',
    };
    if (ws.readyState === ws.OPEN)
      ws.send(JSON.stringify({ type: 'result', id: call.id, result: { ok: false, error: endedError } }));
    ended();
    return;
  }
  const result = await dispatch(core.handlersAs(caller), call.name, call.input ?? {}, log);
  if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ type: 'result', id: call.id, result }));
}
