import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { buildPlugboardApi } from './window-api';

/** Built from the contract's names (window-api.ts): no logic here, nothing but invoke and listen. */
contextBridge.exposeInMainWorld(
  'plugboard',
  buildPlugboardApi({
    invoke: (name, input) => ipcRenderer.invoke(name, input),
    subscribe: (name, listener) => {
      const wrapped = (_event: IpcRendererEvent, payload: unknown) => listener(payload);
      ipcRenderer.on(name, wrapped);
      return () => void ipcRenderer.removeListener(name, wrapped);
    },
  }),
);
