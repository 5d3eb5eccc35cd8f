import * as v from 'valibot';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import { type Core, dispatch } from '../core/index';
import type { Logger } from '../shared/logging';

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
 */
export const callMessage = v.strictObject({
  type: v.literal('call'),
  id: v.union([v.pipe(v.number(), v.safeInteger()), v.pipe(v.string(), v.maxLength(64))]),
  name: v.pipe(v.string(), v.maxLength(128)),
  input: v.optional(v.unknown()),
});

export type CallMessage = v.InferOutput<typeof callMessage>;

/**
 * Serve calls for every socket of `server` and push the Core's events to all of them. `log` gets the
 * Core's errors; `socketLog` (bounded: a stranger can trigger it) gets the sockets closed for a broken frame.
 */
export function bridgeCore(
  server: WebSocketServer,
  core: Pick<Core, 'handlersAs' | 'subscribe'>,
  log: Logger,
  socketLog: (message: string) => void = log,
): () => void {
  server.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => void answer(socket, core, data, isBinary, log));
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
  log: Logger,
): Promise<void> {
  const message = isBinary ? null : parseCall(data.toString());
  if (!message) {
    socket.close(1008, 'Expected a JSON call message: {"type":"call","id":1,"name":"app/info","input":{}}');
    return;
  }
  const result = await dispatch(core.handlersAs('web'), message.name, message.input, log);
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
