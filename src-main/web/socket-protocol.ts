/**
 * The web shell's wire terms, shared by its two halves: the server (server.ts, access.ts) and the
 * page's script (page/web-preload.ts, bundled into the browser). No imports, so the page's bundle
 * takes nothing of Node's with them.
 */

/** Where the page opens its socket. */
export const SOCKET_PATH = '/ws';
/** The subprotocol the shell speaks (bridge.ts); the server answers with this one, never the token. */
export const SOCKET_PROTOCOL = 'plugboard.v1';
/** The page offers `plugboard.token.<token>` next to SOCKET_PROTOCOL. Base64url is valid in a header token. */
export const TOKEN_PROTOCOL_PREFIX = 'plugboard.token.';
/** The largest message a socket may send (a frame, or a fragmented message in total). */
export const MAX_MESSAGE = 1024 * 1024;
