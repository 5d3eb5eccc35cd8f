/**
 * The browser's `window.plugboard`: the Electron preload's API (src-preload/window-api.ts, built from the
 * same contract names), speaking the WebSocket protocol of bridge.ts instead of IPC. Runs in the page,
 * never in Node: the build bundles it into one classic script, out/renderer/plugboard-web-preload.js
 * (electron.vite.config.ts), which the web shell serves at WEB_PRELOAD_PATH ahead of the app, so the
 * page's policy (script-src 'self') needs no inline script. It holds no secret: the token comes from
 * the address, which this script then cleans (access.ts).
 *
 * - The token: taken out of `?token=` with history.replaceState, kept in sessionStorage (a reload
 *   keeps working, another tab or site never sees it) and offered as a subprotocol on every connect.
 * - Calls made while the socket connects wait for it; a connect that fails answers them UNREACHABLE.
 * - A socket that closes (a restart of the shell, a broken frame) is reopened by itself, after
 *   RECONNECT_FIRST_MS doubling to RECONNECT_MAX_MS. Calls in flight when it closed answer
 *   UNREACHABLE (they may or may not have been carried out: never resent). Once it is back, the
 *   page gets the current controllers, states, groups and settings as events, for what it missed.
 * - A call whose message exceeds the shell's limit (MAX_MESSAGE) answers BAD_INPUT here instead of
 *   being sent.
 *
 * On a lab's service (`plugboard serve --web-window`, marked by `<meta name="plugboard-window"
 * content="lab">`), the tab's signed-in session (kept by the sign-in page, page/sign-in.ts) takes the
 * token's place, offered to /api/v1/window. Without one, or once the service says it has ended (the
 * socket closed with SESSION_ENDED_CLOSE, or refused while `GET /api/v1/status` answers the session
 * 401), the tab goes to /sign-in, keeping its place to come back to.
 */
import type { AppSnapshot, ContractError, Result } from '../../../src-preload/contract';
import { buildPlugboardApi } from '../../../src-preload/window-api';
import {
  MAX_MESSAGE,
  SESSION_ENDED_CLOSE,
  SOCKET_PATH,
  SOCKET_PROTOCOL,
  TOKEN_PROTOCOL_PREFIX,
  WINDOW_SOCKET_PATH,
} from '../socket-protocol';
import {
  LAB_WINDOW,
  RECONNECT_FIRST_MS,
  RECONNECT_MAX_MS,
  RETURN_KEY,
  SESSION_KEY,
  TOKEN_KEY,
} from './page-terms';

type Answer = Result<unknown>;
type Resolve = (answer: Answer) => void;

const failure = (code: ContractError['code'], message: string): Answer =>
  Object.freeze({ ok: false as const, error: Object.freeze({ code, message }) });

const lab =
  typeof document !== 'undefined' &&
  document.querySelector('meta[name="plugboard-window"]')?.getAttribute('content') === LAB_WINDOW;

const NO_TOKEN = failure(
  'UNREACHABLE',
  lab
    ? 'This tab is not signed in to the lab service: sign in at /sign-in.'
    : 'This tab has no access token for the Plugboard web shell. Open the address npm run web printed (it ends in ?token=…).',
);
const AWAY = failure(
  'UNREACHABLE',
  'The Plugboard web shell is not answering; reconnecting by itself. If it was restarted with a new token, open the new address it printed.',
);
const LOST = failure(
  'UNREACHABLE',
  'The connection to the Plugboard web shell closed before this call was answered: it may or may not have been carried out. Check, then try again.',
);

const pending = new Map<number, Resolve>();
const listeners = new Map<string, Set<(payload: unknown) => void>>();
let outbox: string[] = [];
let nextId = 1;
let socket: WebSocket | null = null;
let opened = false;
let everOpened = false;
let retries = 0;

const token = lab ? stored(SESSION_KEY) : takeToken();

function stored(key: string): string | null {
  try {
    return sessionStorage.getItem(key);
  } catch {
    return null;
  }
}

/** The lab's sign-in page, coming back to this place afterwards; the ended session is forgotten. */
function toSignIn(): void {
  try {
    sessionStorage.removeItem(SESSION_KEY);
    sessionStorage.setItem(RETURN_KEY, location.hash);
  } catch {
    // Without storage the tab cannot keep a session anyway.
  }
  location.replace('/sign-in');
}

/** Whether the service says this tab's session has ended (a refused socket does not say why). */
async function sessionEnded(): Promise<boolean> {
  try {
    const answer = await fetch('/api/v1/status', {
      headers: { Authorization: `Bearer ${token}` },
      cache: 'no-store',
    });
    return answer.status === 401;
  } catch {
    return false; // the service is away: keep trying
  }
}

function takeToken(): string | null {
  const params = new URLSearchParams(location.search);
  const fromAddress = params.get('token');
  if (fromAddress !== null) {
    params.delete('token');
    const query = params.toString();
    history.replaceState(history.state, '', location.pathname + (query ? '?' + query : '') + location.hash);
  }
  try {
    if (fromAddress) sessionStorage.setItem(TOKEN_KEY, fromAddress);
    return sessionStorage.getItem(TOKEN_KEY) || fromAddress || null;
  } catch {
    return fromAddress || null;
  }
}

function connect(): void {
  opened = false;
  const path = lab ? WINDOW_SOCKET_PATH : SOCKET_PATH;
  const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + path;
  const current = new WebSocket(url, [SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX + token]);
  socket = current;
  current.addEventListener('open', () => {
    opened = true;
    retries = 0;
    const queued = outbox;
    outbox = [];
    for (const message of queued) current.send(message);
    if (everOpened) void catchUp();
    everOpened = true;
  });
  current.addEventListener('message', (event: MessageEvent) => receive(event.data));
  current.addEventListener('close', (event: CloseEvent) => {
    if (socket !== current) return;
    socket = null;
    // Never resent: a switch that did reach the shell must not happen twice.
    for (const resolve of pending.values()) resolve(opened ? LOST : AWAY);
    pending.clear();
    outbox = [];
    if (lab && event.code === SESSION_ENDED_CLOSE) return toSignIn();
    const delay = Math.min(RECONNECT_MAX_MS, RECONNECT_FIRST_MS * 2 ** retries);
    retries++;
    if (lab && !opened)
      void sessionEnded().then((ended) => (ended ? toSignIn() : setTimeout(connect, delay)));
    else setTimeout(connect, delay);
  });
}

type Incoming =
  { type: 'result'; id: number; result: Answer } | { type: 'event'; name: string; payload: unknown };

function receive(data: unknown): void {
  let message: Incoming;
  try {
    message = JSON.parse(data as string) as Incoming;
  } catch {
    return;
  }
  if (message.type === 'result') {
    const resolve = pending.get(message.id);
    if (resolve) {
      pending.delete(message.id);
      resolve(message.result);
    }
  } else if (message.type === 'event') {
    deliver(message.name, message.payload);
  }
}

function deliver(name: string, payload: unknown): void {
  for (const listener of listeners.get(name) ?? []) {
    try {
      listener(payload);
    } catch (error) {
      console.error('A plugboard event listener failed', error);
    }
  }
}

// Events sent while the socket was closed are lost: hand the page the current picture instead.
async function catchUp(): Promise<void> {
  const snapshot = (await invoke('app/snapshot', {})) as Result<AppSnapshot>;
  if (!snapshot.ok) return;
  deliver('controllers/changed', snapshot.value.controllers);
  for (const state of snapshot.value.states) deliver('state/changed', state);
  deliver('groups/changed', snapshot.value.groups);
  deliver('settings/changed', snapshot.value.settings);
}

function invoke(name: string, input: unknown): Promise<Answer> {
  return new Promise((resolve) => {
    if (!token) return resolve(NO_TOKEN);
    if (!socket) return resolve(AWAY);
    const id = nextId++;
    const message = JSON.stringify({ type: 'call', id, name, input: input === undefined ? {} : input });
    const bytes = new TextEncoder().encode(message).length;
    if (bytes > MAX_MESSAGE)
      return resolve(
        failure(
          'BAD_INPUT',
          `This input is too large to send: ${bytes} bytes, at most ${MAX_MESSAGE}. Shorten it.`,
        ),
      );
    pending.set(id, resolve);
    if (opened) socket.send(message);
    else outbox.push(message);
  });
}

function subscribe(name: string, listener: (payload: unknown) => void): () => void {
  let set = listeners.get(name);
  if (!set) listeners.set(name, (set = new Set()));
  set.add(listener);
  return () => void set.delete(listener);
}

if (token) connect();
else if (lab) toSignIn();

Object.defineProperty(window, 'plugboard', {
  value: buildPlugboardApi({ invoke, subscribe }),
  enumerable: true,
});
