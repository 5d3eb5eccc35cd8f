/**
 * The web shell's wire terms, shared by its two halves: the server (server.ts, access.ts) and the
 * page's script (page/web-preload.ts, bundled into the browser). No imports, so the page's bundle
 * takes nothing of Node's with them.
 */

/** Where the page opens its socket. */
export const SOCKET_PATH = '/ws';
/**
 * Where the lab's web window opens its socket: on the service's `api` listener, beside /api/v1/*, the
 * signed-in session offered as the token subprotocol (serve/api-window.ts).
 */
export const WINDOW_SOCKET_PATH = '/api/v1/window';
/** The close code of a lab window's socket whose session ended (signed out, revoked, expired, disabled). */
export const SESSION_ENDED_CLOSE = 4401;
/** The subprotocol the shell speaks (bridge.ts); the server answers with this one, never the token. */
export const SOCKET_PROTOCOL = 'plugboard.v1';
/** The page offers `plugboard.token.<token>` next to SOCKET_PROTOCOL. Base64url is valid in a header token. */
export const TOKEN_PROTOCOL_PREFIX = 'plugboard.token.';
/** The largest message a socket may send (a frame, or a fragmented message in total). */
export const MAX_MESSAGE = 1024 * 1024;
