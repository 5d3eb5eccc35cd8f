/**
 * The lab window's sign-in page (sign-in.html, served by `plugboard serve --web-window` at /sign-in and
 * /sign-out; serve/api-window.ts). Bundled like the web preload into one classic script,
 * out/renderer/plugboard-sign-in.js, so the page's policy stays script-src 'self'.
 *
 * - /sign-in: a name and password → `POST /api/v1/sign-in`; the session it answers is kept in the tab's
 *   sessionStorage (never a cookie, never a URL) and the tab goes to the window, at the place it left.
 *   When `GET /api/v1/status` names the lab's identity provider (`signIn.provider`), "Sign in with
 *   <label>" goes to `/api/v1/oidc/start?client=web`; the service comes back to
 *   `/sign-in#oidc=<one-time code>`, which this page takes out of the address at once and exchanges
 *   (`POST /api/v1/oidc/exchange {code}`) for a session kept the same way. A service that says nothing of
 *   `signIn` (or does not answer) offers the password form alone.
 * - /sign-out: the tab forgets its session first, then asks the service to end it
 *   (`POST /api/v1/sign-out`), and says so.
 */
import { RETURN_KEY, SESSION_KEY } from './page-terms';

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

/** `#oidc=<code>` as the service's callback left it, taken out of the address before anything else. */
function takeProviderCode(): string | null {
  const match = /^#oidc=([^&]+)$/.exec(location.hash);
  if (!match) return null;
  history.replaceState(history.state, '', location.pathname);
  return decodeURIComponent(match[1]!);
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
  const code = takeProviderCode();
  if (code) void finish(post('/api/v1/oidc/exchange', { code }));
  void offerProvider();
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
