import { callNames, eventNames, splitCallName } from '../../src-preload/contract';

/**
 * The browser's `window.plugboard`: the same shape the Electron preload exposes, built from the
 * same contract names, speaking the WebSocket protocol of bridge.ts instead of IPC. Served as an
 * external script (script-src 'self'), so the page's policy needs no inline script.
 * Calls made before the socket opens wait in a queue; once the shell stops, every call answers
 * UNREACHABLE rather than hanging.
 */
export function webPreloadScript(): string {
  return `(() => {
  'use strict';
  // [name, domain, action] per call, split by the contract as the Electron preload splits them.
  const CALLS = ${JSON.stringify(callNames.map((name) => [name, ...splitCallName(name)]))};
  const EVENTS = ${JSON.stringify(eventNames)};
  const STOPPED = Object.freeze({
    ok: false,
    error: {
      code: 'UNREACHABLE',
      message: 'The Plugboard web shell has stopped. Start it again with npm run web and open the new address it prints.',
    },
  });
  const pending = new Map();
  const listeners = new Map(EVENTS.map((name) => [name, new Set()]));
  const outbox = [];
  let nextId = 1;
  let stopped = false;

  const socket = new WebSocket((location.protocol === 'https:' ? 'wss://' : 'ws://') + location.host + '/ws');
  socket.addEventListener('open', () => {
    for (const message of outbox.splice(0)) socket.send(message);
  });
  socket.addEventListener('message', (event) => {
    let message;
    try {
      message = JSON.parse(event.data);
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
      for (const listener of listeners.get(message.name) ?? []) {
        try {
          listener(message.payload);
        } catch (error) {
          console.error('A plugboard event listener failed', error);
        }
      }
    }
  });
  socket.addEventListener('close', () => {
    stopped = true;
    for (const resolve of pending.values()) resolve(STOPPED);
    pending.clear();
  });

  function invoke(name, input) {
    return new Promise((resolve) => {
      if (stopped) return resolve(STOPPED);
      const id = nextId++;
      const message = JSON.stringify({ type: 'call', id, name, input: input === undefined ? {} : input });
      pending.set(id, resolve);
      if (socket.readyState === WebSocket.OPEN) socket.send(message);
      else outbox.push(message);
    });
  }

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
