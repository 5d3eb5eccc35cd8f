/**
 * The lab window's sign-in page (sign-in.html, served by `plugboard serve --web-window` at /sign-in and
 * /sign-out; serve/api-window.ts). Bundled like the web preload into one classic script,
 * out/renderer/plugboard-sign-in.js, so the page's policy stays script-src 'self'.
 *
 * - /sign-in: a name and password → `POST /api/v1/sign-in`; the session it answers is kept in the tab's
 *   sessionStorage (never a cookie, never a URL) and the tab goes to the window, at the place it left.
 *   When `GET /api/v1/status` names the lab's identity provider (`signIn.provider`), "Sign in with
 *   <label>" goes to `/api/v1/oidc/start?client=web&challenge=<S256 of a verifier>`, the verifier kept
 *   in this tab's sessionStorage; the service comes back to `/sign-in#oidc=<one-time code>`, which this
 *   page takes out of the address at once and exchanges with the tab's verifier
 *   (`POST /api/v1/oidc/exchange {code, verifier}`) for a session kept the same way. The challenge binds
 *   the code to the tab that started: a code slipped into another tab or browser signs nobody in there.
 *   A refusal comes back as `#oidc-error=<sentence>`, shown as the problem. A service that says nothing
 *   of `signIn` (or does not answer) offers the password form alone.
 * - /sign-out: the tab forgets its session first, then asks the service to end it
 *   (`POST /api/v1/sign-out`), and says so.
 */
import { RETURN_KEY, SESSION_KEY, VERIFIER_KEY } from './page-terms';

interface ServiceError {
  code?: string;
  message?: string;
  action?: string;
}

interface SignInStatus {
  signIn?: { password?: boolean; provider?: { label?: unknown } | null };
}

const byId = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function problem(text: string | null): void {
  const box = byId<HTMLParagraphElement>('problem');
  box.textContent = text ?? '';
  box.hidden = text === null;
}

function forget(key: string): string | null {
  try {
    const value = sessionStorage.getItem(key);
    sessionStorage.removeItem(key);
    return value;
  } catch {
    return null;
  }
}

/** A session from the service's answer (sign-in or exchange), kept in the tab; then the window. */
async function finish(answer: Promise<Response>): Promise<void> {
  let response: Response;
  let body: { token?: unknown; session?: unknown; error?: ServiceError } = {};
  try {
    response = await answer;
    body = (await response.json().catch(() => ({}))) as typeof body;
  } catch {
    problem('The lab service did not answer. Check the connection, then try again.');
    return;
  }
  const session = body.token ?? body.session;
  if (!response.ok || typeof session !== 'string') {
    const error = body.error ?? {};
    problem(
      [error.message ?? `The lab service refused the sign-in (HTTP ${response.status}).`, error.action]
        .filter(Boolean)
        .join(' '),
    );
    return;
  }
  const back = forget(RETURN_KEY);
  sessionStorage.setItem(SESSION_KEY, session);
  location.replace(`/${back?.startsWith('#/') ? back : ''}`);
}

const post = (path: string, body: unknown, session?: string): Promise<Response> =>
  fetch(path, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      ...(session ? { Authorization: `Bearer ${session}` } : {}),
    },
    body: JSON.stringify(body),
    cache: 'no-store',
  });

/**
 * What the service's callback left in the address (`#oidc=<code>` or `#oidc-error=<sentence>`), taken
 * out of it before anything else, with the verifier this tab kept for it (forgotten: it is good once).
 */
function takeProviderAnswer(): { code: string; verifier: string | null } | { error: string } | null {
  const match = /^#(oidc|oidc-error)=([^&]*)$/.exec(location.hash);
  if (!match) return null;
  history.replaceState(history.state, '', location.pathname);
  const verifier = forget(VERIFIER_KEY);
  let text = match[2]!;
  try {
    text = decodeURIComponent(text);
  } catch {
    // Left as it came: the service encodes both, so only a hand-made address gets here.
  }
  return match[1] === 'oidc' ? { code: text, verifier } : { error: text };
}

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');

/**
 * Go to the provider with a fresh verifier's challenge (PKCE S256), the verifier kept in this tab. A
 * page without Web Crypto (not a secure context) follows the link as it is, unbound.
 */
async function goToProvider(link: HTMLAnchorElement): Promise<void> {
  let target = link.href;
  try {
    const verifier = base64url(crypto.getRandomValues(new Uint8Array(32)));
    const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
    sessionStorage.setItem(VERIFIER_KEY, verifier);
    target = `${link.href}&challenge=${base64url(new Uint8Array(digest))}`;
  } catch {
    forget(VERIFIER_KEY);
  }
  location.assign(target);
}

async function offerProvider(): Promise<void> {
  let status: SignInStatus;
  try {
    const response = await fetch('/api/v1/status', { cache: 'no-store' });
    if (!response.ok) return;
    status = (await response.json()) as SignInStatus;
  } catch {
    return;
  }
  const label = status.signIn?.provider?.label;
  if (typeof label === 'string' && label) {
    const link = byId<HTMLAnchorElement>('provider');
    link.textContent = `Sign in with ${label}`;
    link.hidden = false;
  }
  if (status.signIn?.password === false) byId<HTMLFormElement>('password-form').hidden = true;
}

async function signOut(): Promise<void> {
  byId('signing-in').hidden = true;
  byId('signed-out').hidden = false;
  const session = forget(SESSION_KEY);
  if (session) await post('/api/v1/sign-out', {}, session).catch(() => undefined);
  byId('signed-out-note').textContent = session
    ? 'You are signed out: this tab forgot its session, and the lab service ended it.'
    : 'This tab was not signed in.';
}

function start(): void {
  if (location.pathname === '/sign-out') {
    void signOut();
    return;
  }
  const answer = takeProviderAnswer();
  if (answer && 'error' in answer) problem(answer.error);
  else if (answer)
    void finish(post('/api/v1/oidc/exchange', answer.verifier ? answer : { code: answer.code }));
  void offerProvider();
  const provider = byId<HTMLAnchorElement>('provider');
  provider.addEventListener('click', (event) => {
    event.preventDefault();
    problem(null);
    void goToProvider(provider);
  });
  const form = byId<HTMLFormElement>('password-form');
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    problem(null);
    const name = byId<HTMLInputElement>('name').value.trim();
    const password = byId<HTMLInputElement>('password');
    void finish(post('/api/v1/sign-in', { name, password: password.value })).finally(() => {
      password.value = '';
    });
  });
}

start();
