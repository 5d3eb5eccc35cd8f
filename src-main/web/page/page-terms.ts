/** Reconnect delays: the first retry after FIRST ms, doubling up to MAX ms while the shell stays away. */
export const RECONNECT_FIRST_MS = 250;
export const RECONNECT_MAX_MS = 10_000;
/** Where the tab keeps the token (sessionStorage: this tab only, gone when it closes). */
export const TOKEN_KEY = 'plugboard.token';
