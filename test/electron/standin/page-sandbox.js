/*
 * Runs in the page before any of the page's own scripts (an init script of the Electron stand-in): the
 * sandboxed renderer's side of Electron, just enough to run a built preload as Electron runs it.
 * `config`: { binding, deliver, preloadPath, platform }; `preload(require, module, exports, process,
 * global, setImmediate, clearImmediate)` is the preload's CommonJS source wrapped in a function.
 * Plain JavaScript on purpose: it is sent to the page as text.
 */
/* global window */
// eslint-disable-next-line @typescript-eslint/no-unused-expressions
(function plugboardStandInSandbox(config, preload) {
  // Electron runs preloads in the main frame only (nodeIntegrationInSubFrames is off).
  if (window.top !== window) return;
  const toMain = window[config.binding];
  delete window[config.binding];
  if (typeof toMain !== 'function') throw new Error('The stand-in binding is missing');

  class EventEmitter {
    #listeners = new Map();
    on(name, listener) {
      this.#listeners.set(name, [...(this.#listeners.get(name) ?? []), listener]);
      return this;
    }
    addListener(name, listener) {
      return this.on(name, listener);
    }
    once(name, listener) {
      const once = (...args) => {
        this.removeListener(name, once);
        listener(...args);
      };
      return this.on(name, once);
    }
    removeListener(name, listener) {
      const list = this.#listeners.get(name) ?? [];
      const at = list.lastIndexOf(listener);
      if (at >= 0) this.#listeners.set(name, list.toSpliced(at, 1));
      return this;
    }
    off(name, listener) {
      return this.removeListener(name, listener);
    }
    removeAllListeners(name) {
      if (name === undefined) this.#listeners.clear();
      else this.#listeners.delete(name);
      return this;
    }
    listenerCount(name) {
      return (this.#listeners.get(name) ?? []).length;
    }
    emit(name, ...args) {
      const list = this.#listeners.get(name) ?? [];
      for (const listener of list) listener.apply(this, args);
      return list.length > 0;
    }
  }
  EventEmitter.EventEmitter = EventEmitter;

  // ---- ipcRenderer: invoke and send go to main over the CDP binding, main's send comes back here.
  const ipcRenderer = new EventEmitter();
  ipcRenderer.invoke = async (channel, ...args) => {
    // Electron serialises IPC arguments with the structured clone algorithm (functions throw).
    const reply = await toMain({ kind: 'invoke', channel: String(channel), args: structuredClone(args) });
    if (reply.ok) return reply.value;
    throw new Error(`Error invoking remote method '${channel}': ${reply.error}`);
  };
  ipcRenderer.send = (channel, ...args) => {
    void toMain({ kind: 'send', channel: String(channel), args: structuredClone(args) });
  };
  ipcRenderer.sendSync = () => {
    throw new Error('The Electron stand-in does not implement ipcRenderer.sendSync');
  };
  Object.defineProperty(window, config.deliver, {
    value: (channel, args) => {
      ipcRenderer.emit(channel, { sender: ipcRenderer, senderId: 0, ports: [] }, ...args);
    },
  });

  // ---- contextBridge: what crosses is copied; functions and promises are proxied.
  const copyError = (error) => new Error(error instanceof Error ? error.message : String(error));
  const copy = (value) => {
    if (typeof value === 'function') {
      return function bridged(...args) {
        return copy(value(...args.map(copy)));
      };
    }
    if (value instanceof Promise) {
      return new Promise((resolve, reject) =>
        value.then(
          (v) => resolve(copy(v)),
          (e) => reject(copyError(e)),
        ),
      );
    }
    if (value instanceof Error) return copyError(value);
    if (Array.isArray(value)) return value.map(copy);
    if (value !== null && typeof value === 'object') {
      const prototype = Object.getPrototypeOf(value);
      if (prototype !== Object.prototype && prototype !== null) return structuredClone(value);
      const copied = {};
      for (const key of Object.keys(value)) copied[key] = copy(value[key]);
      return copied;
    }
    return value;
  };
  const contextBridge = {
    exposeInMainWorld(key, api) {
      if (Object.prototype.hasOwnProperty.call(window, key))
        throw new Error('Cannot bind an API on top of an existing property on the window object');
      Object.defineProperty(window, key, { value: copy(api), enumerable: true });
    },
  };

  // ---- the sandboxed preload's require: electron, events, timers, url and nothing else.
  const modules = {
    electron: { contextBridge, ipcRenderer },
    events: EventEmitter,
    timers: { setTimeout, clearTimeout, setInterval, clearInterval },
    url: { URL, URLSearchParams },
  };
  const require = (name) => {
    if (!Object.prototype.hasOwnProperty.call(modules, name)) throw new Error(`module not found: ${name}`);
    return modules[name];
  };
  const process = {
    type: 'renderer',
    sandboxed: true,
    contextIsolated: true,
    platform: config.platform,
    env: {},
    versions: {},
  };
  const module = { exports: {} };
  const setImmediate = (callback, ...args) => setTimeout(callback, 0, ...args);
  const clearImmediate = (handle) => clearTimeout(handle);
  try {
    preload.call(
      module.exports,
      require,
      module,
      module.exports,
      process,
      window,
      setImmediate,
      clearImmediate,
    );
  } catch (error) {
    // Electron logs this in the page's console and emits webContents 'preload-error'.
    console.error(`Unable to load preload script: ${config.preloadPath}`);
    console.error(error);
    void toMain({ kind: 'preload-error', message: error instanceof Error ? error.message : String(error) });
  }
});
