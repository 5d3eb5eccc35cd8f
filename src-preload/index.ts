import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { callNames, eventNames, splitCallName, type PlugboardApi } from './contract';

/** Built from the contract's names: no logic here, nothing but invoke and listen. */
function buildApi(): PlugboardApi {
  const api: Record<string, Record<string, unknown>> = {};
  for (const name of callNames) {
    const [domain, action] = splitCallName(name);
    (api[domain] ??= {})[action] = (input: unknown) => ipcRenderer.invoke(name, input);
  }
  const known = new Set<string>(eventNames);
  const on = (name: string, listener: (payload: unknown) => void) => {
    if (!known.has(name)) throw new Error(`Unknown event ${name}`);
    const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
    ipcRenderer.on(name, wrapped);
    return () => void ipcRenderer.removeListener(name, wrapped);
  };
  return { ...api, on } as unknown as PlugboardApi;
}

contextBridge.exposeInMainWorld('plugboard', buildApi());
