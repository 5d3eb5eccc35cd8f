import type { IpcMain } from 'electron';
import { callNames, type CallName, type Handlers, type Result } from '../../src-preload/contract';
import { dispatch } from '../core/index';
import type { Logger } from '../shared/logging';

/** The part of an `IpcMainInvokeEvent` the sender check reads (a fake in tests). */
export interface InvokeEventLike {
  /** The frame that sent the message; null once it has navigated away or been destroyed. */
  senderFrame: { url: string; parent: unknown } | null;
}

export interface IpcDispatcherOptions {
  handlers: Handlers;
  /** True only for the app's own page (see app-page.ts). */
  isAppUrl(url: string): boolean;
  log: Logger;
}

/** Thrown (so `ipcRenderer.invoke` rejects) for a message that was dropped; it carries no data. */
export class RefusedSenderError extends Error {
  override name = 'RefusedSenderError';
}

/**
 * The pure heart of the ipcMain binding. Following VS Code's validated ipcMain, every message first
 * passes a sender check — only the app's own top-level page may call the Core; a subframe or any other
 * page (should one ever load despite the navigation guards) is dropped and the reason logged — then
 * `dispatch` validates the input against the contract and runs the handler.
 */
export function createIpcDispatcher(options: IpcDispatcherOptions) {
  return async (event: InvokeEventLike, name: CallName, input: unknown): Promise<Result<unknown>> => {
    const refusal = refusalReason(event, options.isAppUrl);
    if (refusal) {
      options.log(`Dropped IPC call ${name}: ${refusal}.`);
      throw new RefusedSenderError(`Plugboard refused ${name}: ${refusal}.`);
    }
    return dispatch(options.handlers, name, input, options.log);
  };
}

function refusalReason(event: InvokeEventLike, isAppUrl: (url: string) => boolean): string | null {
  const frame = event.senderFrame;
  if (!frame) return 'the sending frame is gone';
  if (frame.parent !== null) return `the sender is a subframe (${describeUrl(frame.url)})`;
  if (!isAppUrl(frame.url)) return `the sender ${describeUrl(frame.url)} is not the app's own page`;
  return null;
}

/** Origin and path only: a query string could carry something private. */
function describeUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'file:' ? parsed.href.split(/[?#]/)[0]! : `${parsed.origin}${parsed.pathname}`;
  } catch {
    return 'with a malformed URL';
  }
}

/** Register one `ipcMain.handle` per contract call; returns the function that removes them all. */
export function bindIpc(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  options: IpcDispatcherOptions,
): () => void {
  const dispatcher = createIpcDispatcher(options);
  for (const name of callNames) {
    ipcMain.handle(name, (event, input: unknown) => dispatcher(event, name, input));
  }
  return () => {
    for (const name of callNames) ipcMain.removeHandler(name);
  };
}
