/**
 * ipcMain as the app's main code sees it: `handle` answers `ipcRenderer.invoke`, `on` hears
 * `ipcRenderer.send`. The event carries the sending frame as Electron's does (its real URL, and its
 * parent: null for a top-level frame).
 */
import { EventEmitter } from 'node:events';

export interface SenderFrame {
  url: string;
  parent: SenderFrame | null;
}

export interface IpcEvent {
  sender: unknown;
  senderFrame: SenderFrame | null;
  processId: number;
  frameId: number;
}

type Handler = (event: IpcEvent, ...args: unknown[]) => unknown;

export class StandInIpcMain extends EventEmitter {
  readonly #handlers = new Map<string, Handler>();

  handle(channel: string, handler: Handler): void {
    if (this.#handlers.has(channel))
      throw new Error(`Attempted to register a second handler for '${channel}'`);
    this.#handlers.set(channel, handler);
  }

  handleOnce(channel: string, handler: Handler): void {
    this.handle(channel, (event, ...args) => {
      this.removeHandler(channel);
      return handler(event, ...args);
    });
  }

  removeHandler(channel: string): void {
    this.#handlers.delete(channel);
  }

  /** An invoke from a page: the handler's value, or the message Electron puts in the rejection. */
  async invoke(event: IpcEvent, channel: string, args: unknown[]) {
    const handler = this.#handlers.get(channel);
    if (!handler) return { ok: false as const, error: `Error: No handler registered for '${channel}'` };
    try {
      return { ok: true as const, value: await handler(event, ...args) };
    } catch (error) {
      return { ok: false as const, error: String(error) };
    }
  }
}
