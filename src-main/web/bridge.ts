import type { IncomingMessage } from 'node:http';
import * as v from 'valibot';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import type { ActivityDoor, Caller } from '../../src-preload/model';
import { type Core, dispatch } from '../core/index';
import type { Logger } from '../shared/logging';
import { SESSION_ENDED_CLOSE } from './socket-protocol';

/**
 * The web shell's wire protocol, one JSON text message per frame:
 *
 *   browser → shell  { "type": "call",   "id": 7, "name": "controllers/list", "input": {} }
 *   shell → browser  { "type": "result", "id": 7, "result": { "ok": true, "value": [...] } }
 *   shell → browser  { "type": "event",  "name": "state/changed", "payload": {...} }
 *
 * `id` is chosen by the browser (a number or a short string) and echoed back; calls run
 * concurrently and their results may arrive in any order. An unknown call or bad input answers a
 * BAD_INPUT result like in Electron; a frame that is not a call message closes the socket (1008).
 * A frame that breaks the WebSocket protocol (bad UTF-8, an unmasked or oversized frame, a message
 * over 1 MiB, a bad opcode or close code, RSV bits) closes that socket alone with the code ws chose
 * (1002, 1007, 1009) and is logged once; the shell and every other socket carry on.
 *
 * Whom a socket's calls act for is asked at each call (`CallerRule`): the web shell's person (the `web`
 * door as the OS user), or the lab window's account, read again from its session each time. A session
 * that has ended answers the call AUTH_FAILED (nothing done) and closes the socket with
 * SESSION_ENDED_CLOSE, which sends the page to its sign-in.
 */
export const callMessage = v.strictObject({
  type: v.literal('call'),
  id: v.union([v.pipe(v.number(), v.safeInteger()), v.pipe(v.string(), v.maxLength(64))]),
  name: v.pipe(v.string(), v.maxLength(128)),
  input: v.optional(v.unknown()),
});

export type CallMessage = v.InferOutput<typeof callMessage>;

/** Whom one call acts for: a caller, a door (as the Core's own user), or null when nobody any more. */
export type CallerRule = () => Caller | ActivityDoor | Promise<Caller | null>;

/** The answer to a call made after the socket's session ended; the socket then closes. */
export const SESSION_ENDED = Object.freeze({
  code: 'AUTH_FAILED',
  message: 'Your session ended (signed out, revoked, expired, or its account disabled); nothing was done.',
  action: 'Sign in again.',
});

/** The sentence a socket is closed with when its session ended (at most 123 bytes). */
export const SESSION_ENDED_REASON = 'The session ended: sign in again.';

/**
 * Serve calls for every socket of `server` and push the Core's events to all of them. `log` gets the
 * Core's errors; `socketLog` (bounded: a stranger can trigger it) gets the sockets closed for a broken frame.
 */
export function bridgeCore(
  server: WebSocketServer,
  core: Pick<Core, 'handlersAs' | 'subscribe'>,
  log: Logger,
  socketLog: (message: string) => void = log,
  callerOf: (request: IncomingMessage) => CallerRule = () => () => 'web',
): () => void {
  server.on('connection', (socket, request: IncomingMessage) => {
    const caller = callerOf(request);
    socket.on('message', (data, isBinary) => void answer(socket, core, data, isBinary, caller, log));
    // Without a listener, ws's 'error' for a broken frame is thrown and ends the whole process.
    socket.once('error', (error: Error & { code?: string }) => {
      socketLog(
        `Closed a WebSocket that sent a broken frame: ${error.message} (${error.code ?? 'no code'}).`,
      );
      socket.on('error', () => undefined); // ws reports one error per socket; never let a second one throw
    });
  });
  return core.subscribe((name, payload) => {
    const frame = JSON.stringify({ type: 'event', name, payload });
    for (const socket of server.clients) {
      if (socket.readyState === socket.OPEN) socket.send(frame);
    }
  });
}

async function answer(
  socket: WebSocket,
  core: Pick<Core, 'handlersAs'>,
  data: RawData,
  isBinary: boolean,
  callerRule: CallerRule,
  log: Logger,
): Promise<void> {
  const message = isBinary ? null : parseCall(data.toString());
  if (!message) {
    socket.close(1008, 'Expected a JSON call message: {"type":"call","id":1,"name":"app/info","input":{}}');
    return;
  }
  let caller: Caller | ActivityDoor | null;
  try {
    caller = await callerRule();
  } catch (error) {
    log('web window: could not check the session', error);
    const unchecked = { code: 'STORE', message: 'The service could not check your session; try again.' };
    if (socket.readyState === socket.OPEN)
      socket.send(
        JSON.stringify({ type: 'result', id: message.id, result: { ok: false, error: unchecked } }),
      );
    return;
  }
  if (caller === null) {
    if (socket.readyState !== socket.OPEN) return;
    socket.send(
      JSON.stringify({ type: 'result', id: message.id, result: { ok: false, error: SESSION_ENDED } }),
    );
    socket.close(SESSION_ENDED_CLOSE, SESSION_ENDED_REASON);
    return;
  }
  const result = await dispatch(core.handlersAs(caller), message.name, message.input, log);
  if (socket.readyState === socket.OPEN)
    socket.send(JSON.stringify({ type: 'result', id: message.id, result }));
}

function parseCall(text: string): CallMessage | null {
  try {
    const parsed = v.safeParse(callMessage, JSON.parse(text));
    return parsed.success ? parsed.output : null;
  } catch {
    return null;
  }
}
