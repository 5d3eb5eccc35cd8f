/** Reconnect delays: the first retry after FIRST ms, doubling up to MAX ms while the shell stays away. */
export const RECONNECT_FIRST_MS = 250;
export const RECONNECT_MAX_MS = 10_000;
/** Where the tab keeps the token (sessionStorage: this tab only, gone when it closes). */
export const TOKEN_KEY = 'plugboard.token';
/** Where a lab window's tab keeps its signed-in session (sessionStorage, like the token). */
export const SESSION_KEY = 'plugboard.session';
/** Where the sign-in page keeps the PKCE verifier of its provider sign-in until the exchange (sessionStorage). */
export const VERIFIER_KEY = 'plugboard.oidc-verifier';
/** Where the window keeps its place (#/…) while the tab signs in, to come back to it. */
export const RETURN_KEY = 'plugboard.return';
/** The meta tag's content that marks the window as served by a lab's service (serve/api-window.ts). */
export const LAB_WINDOW = 'lab';
