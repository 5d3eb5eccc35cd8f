import { callNames, eventNames, splitCallName } from '../../src-preload/contract';
import { SOCKET_PROTOCOL, TOKEN_PROTOCOL_PREFIX } from './access';

/** Reconnect delays: the first retry after FIRST ms, doubling up to MAX ms while the shell stays away. */
export const RECONNECT_FIRST_MS = 250;
export const RECONNECT_MAX_MS = 10_000;
/** Where the tab keeps the token (sessionStorage: this tab only, gone when it closes). */
export const TOKEN_KEY = 'plugboard.token';

/**
 * The browser's `window.plugboard`: the same shape the Electron preload exposes, built from the
 * same contract names, speaking the WebSocket protocol of bridge.ts instead of IPC. Served as an
 * external script (script-src 'self'), so the page's policy needs no inline script. It holds no
 * secret: the token comes from the address, which the script then cleans (access.ts).
 *
 * - The token: taken out of `?token=` with history.replaceState, kept in sessionStorage (a reload
 *   keeps working, another tab or site never sees it) and offered as a subprotocol on every connect.
 * - Calls made while the socket connects wait for it; a connect that fails answers them UNREACHABLE.
 * - A socket that closes (a restart of the shell, a broken frame) is reopened by itself, after
 *   RECONNECT_FIRST_MS doubling to RECONNECT_MAX_MS. Calls in flight when it closed answer
 *   UNREACHABLE (they may or may not have been carried out: never resent). Once it is back, the
 *   page gets the current controllers, states, groups and settings as events, for what it missed.
 * - A call whose message exceeds the shell's limit answers BAD_INPUT here instead of being sent.
 */
export function webPreloadScript(maxMessageBytes: number): string {
  return `(() => {
  'use strict';
  // [name, domain, action] per call, split by the contract as the Electron preload splits them.
  const CALLS = ${JSON.stringify(callNames.map((name) => [name, ...splitCallName(name)]))};
  const EVENTS = ${JSON.stringify(eventNames)};
  const PROTOCOL = ${JSON.stringify(SOCKET_PROTOCOL)};
  const TOKEN_PREFIX = ${JSON.stringify(TOKEN_PROTOCOL_PREFIX)};
  const TOKEN_KEY = ${JSON.stringify(TOKEN_KEY)};
  const FIRST_MS = ${RECONNECT_FIRST_MS};
  const MAX_MS = ${RECONNECT_MAX_MS};
  const MAX_BYTES = ${maxMessageBytes};
  const failure = (code, message) => Object.freeze({ ok: false, error: Object.freeze({ code, message }) });
  const NO_TOKEN = failure(
    'UNREACHABLE',
    'This tab has no access token for the Plugboard web shell. Open the address npm run web printed (it ends in ?token=…).',
  );
  const AWAY = failure(
    'UNREACHABLE',
    'The Plugboard web shell is not answering; reconnecting by itself. If it was restarted with a new token, open the new address it printed.',
  );
  const LOST = failure(
    'UNREACHABLE',
    'The connection to the Plugboard web shell closed before this call was answered: it may or may not have been carried out. Check, then try again.',
  );
  const pending = new Map();
  const listeners = new Map(EVENTS.map((name) => [name, new Set()]));
  let outbox = [];
  let nextId = 1;
  let socket = null;
  let opened = false;
  let everOpened = false;
  let retries = 0;
  let timer = null;

  const token = takeToken();

  function takeToken() {
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

  function connect() {
    timer = null;
    opened = false;
    const url = (location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws';
    const current = new WebSocket(url, [PROTOCOL, TOKEN_PREFIX + token]);
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
    current.addEventListener('message', (event) => receive(event.data));
    current.addEventListener('close', () => {
      if (socket !== current) return;
      socket = null;
      // Never resent: a switch that did reach the shell must not happen twice.
      for (const resolve of pending.values()) resolve(opened ? LOST : AWAY);
      pending.clear();
      outbox = [];
      const delay = Math.min(MAX_MS, FIRST_MS * 2 ** retries);
      retries++;
      timer = setTimeout(connect, delay);
    });
  }

  function receive(data) {
    let message;
    try {
      message = JSON.parse(data);
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

  function deliver(name, payload) {
    for (const listener of listeners.get(name) ?? []) {
      try {
        listener(payload);
      } catch (error) {
        console.error('A plugboard event listener failed', error);
      }
    }
  }

  // Events sent while the socket was closed are lost: hand the page the current picture instead.
  async function catchUp() {
    const snapshot = await invoke('app/snapshot', {});
    if (!snapshot.ok) return;
    deliver('controllers/changed', snapshot.value.controllers);
    for (const state of snapshot.value.states) deliver('state/changed', state);
    deliver('groups/changed', snapshot.value.groups);
    deliver('settings/changed', snapshot.value.settings);
  }

  function invoke(name, input) {
    return new Promise((resolve) => {
      if (!token) return resolve(NO_TOKEN);
      if (!socket) return resolve(AWAY);
      const id = nextId++;
      const message = JSON.stringify({ type: 'call', id, name, input: input === undefined ? {} : input });
      const bytes = new TextEncoder().encode(message).length;
      if (bytes > MAX_BYTES)
        return resolve(
          failure('BAD_INPUT', 'This input is too large to send: ' + bytes + ' bytes, at most ' + MAX_BYTES + '. Shorten it.'),
        );
      pending.set(id, resolve);
      if (opened) socket.send(message);
      else outbox.push(message);
    });
  }

  if (token) connect();

  const api = {};
  for (const [name, domain, action] of CALLS) (api[domain] ??= {})[action] = (input) => invoke(name, input);
  for (const domain of Object.keys(api)) Object.freeze(api[domain]);
  api.on = (name, listener) => {
    const set = listeners.get(name);
    if (!set) throw new Error('Unknown event ' + name);
    if (typeof listener !== 'function') throw new TypeError('plugboard.on needs a listener function');
    const wrapped = (payload) => listener(payload);
    set.add(wrapped);
    return () => {
      set.delete(wrapped);
    };
  };
  Object.defineProperty(window, 'plugboard', { value: Object.freeze(api), enumerable: true });
})();
`;
}
