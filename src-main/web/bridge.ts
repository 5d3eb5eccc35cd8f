import * as v from 'valibot';
import type { RawData, WebSocket, WebSocketServer } from 'ws';
import type { Core } from '../core/index';
import { dispatch, type Logger } from '../core/dispatch';

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
 */
export const callMessage = v.strictObject({
  type: v.literal('call'),
  id: v.union([v.pipe(v.number(), v.safeInteger()), v.pipe(v.string(), v.maxLength(64))]),
  name: v.pipe(v.string(), v.maxLength(128)),
  input: v.optional(v.unknown()),
});

export type CallMessage = v.InferOutput<typeof callMessage>;

/** Serve calls for every socket of `server` and push the Core's events to all of them. */
export function bridgeCore(server: WebSocketServer, core: Core, log: Logger): () => void {
  server.on('connection', (socket) => {
    socket.on('message', (data, isBinary) => void answer(socket, core, data, isBinary, log));
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
  core: Core,
  data: RawData,
  isBinary: boolean,
  log: Logger,
): Promise<void> {
  const message = isBinary ? null : parseCall(data.toString());
  if (!message) {
    socket.close(1008, 'Expected a JSON call message: {"type":"call","id":1,"name":"app/info","input":{}}');
    return;
  }
  const result = await dispatch(core.handlers, message.name, message.input, log);
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
