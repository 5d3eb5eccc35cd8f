/**
 * The wire of the Core's own socket (`<configDir>/core.sock`; a named pipe on Windows), where the
 * process that runs the Core (the holder of the Core lock: `plugboard serve`, the desktop app or the web
 * shell) answers the other Plugboards of the same OS user on that folder. It is the web shell's
 * WebSocket protocol (src-main/web/bridge.ts), one JSON text message per frame:
 *
 *   client → Core  { "type": "call",   "id": 7, "name": "outlets/set", "input": {...}, "actor": {...} }
 *   Core → client  { "type": "result", "id": 7, "result": { "ok": true, "value": ... } }
 *   Core → client  { "type": "event",  "name": "state/changed", "payload": {...} }
 *
 * with one addition: a call may say whom it acts for (`actor`: the door `window`, `tray`, `web` or
 * `cli`, and `who`, an OS user name), recorded in the activity log. Only the socket's owner can connect
 * (mode 0600 in an owner-only folder), so the caller is the same OS user as the Core's: it cannot claim
 * more than it could do by running Plugboard itself. A call without `actor` acts as the CLI of the Core's OS user.
 */
import { createHash } from 'node:crypto';
import * as v from 'valibot';
import type { ActivityDoor } from '../../src-preload/model';

/** The doors a caller on the owner-only socket may act through. */
export const LINK_DOORS = ['window', 'tray', 'web', 'cli'] as const satisfies readonly ActivityDoor[];

/** The socket's file in the config folder (POSIX); Windows uses a named pipe derived from the folder. */
export const CORE_SOCKET_FILE = 'core.sock';
/** The path the WebSocket is served on. */
export const LINK_PATH = '/core';
/**
 * The same protocol on `plugboard serve`'s `api` listener, for a CLI on another machine (`--service
 * URL`): a bearer token authenticates the upgrade, and every call acts as the CLI door with the token's
 * name as who, whatever `actor` it names.
 */
export const REMOTE_LINK_PATH = '/api/v1/link';
/** The subprotocol both ends speak. */
export const LINK_PROTOCOL = 'plugboard.core.v1';
/** The largest message either end sends (a snapshot with meter history fits easily). */
export const MAX_LINK_MESSAGE = 16 * 1024 * 1024;

/**
 * The close code of a remote link whose session ended (signed out, revoked, expired, its account
 * disabled): the client refuses what is called on it afterwards with AUTH_FAILED, not "stopped".
 */
export const SESSION_ENDED_CLOSE = 1008;

export const linkActor = v.strictObject({
  door: v.picklist(LINK_DOORS),
  who: v.pipe(v.string(), v.minLength(1), v.maxLength(128)),
});

export const linkCall = v.strictObject({
  type: v.literal('call'),
  id: v.pipe(v.number(), v.safeInteger()),
  name: v.pipe(v.string(), v.maxLength(128)),
  input: v.optional(v.unknown()),
  actor: v.optional(linkActor),
});

export type LinkCall = v.InferOutput<typeof linkCall>;
export type LinkActor = v.InferOutput<typeof linkActor>;

export const linkReply = v.variant('type', [
  v.object({
    type: v.literal('result'),
    id: v.number(),
    result: v.variant('ok', [
      v.object({ ok: v.literal(true), value: v.unknown() }),
      v.object({
        ok: v.literal(false),
        error: v.object({
          code: v.string(),
          message: v.string(),
          action: v.optional(v.string()),
          detail: v.optional(v.unknown()),
        }),
      }),
    ]),
  }),
  v.object({ type: v.literal('event'), name: v.string(), payload: v.unknown() }),
]);

export type LinkReply = v.InferOutput<typeof linkReply>;

/**
 * Where the Core's socket is for a config folder: `<dir>/core.sock`, or on Windows a named pipe whose
 * name is derived from the folder (pipes live in their own namespace, not in a folder).
 */
export function coreSocketPath(configDir: string, platform: NodeJS.Platform = process.platform): string {
  if (platform !== 'win32') return `${configDir.replace(/\/+$/, '')}/${CORE_SOCKET_FILE}`;
  const tag = createHash('sha256').update(configDir.toLowerCase()).digest('hex').slice(0, 32);
  return `\\\\.\\pipe\\plugboard-core-${tag}`;
}
