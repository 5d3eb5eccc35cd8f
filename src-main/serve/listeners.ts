/**
 * The listener table: how each `--listen` name starts. One entry per listener; adding one is a line here.
 */
import { startWebShell } from '../web/server';
import { startApiListener } from './api';
import type { ListenerContext, ListenerFactory, RunningListener } from './listener';
import type { ListenerName } from './options';

/** The web window (the web shell) on loopback, over this service's Core. */
const webListener: ListenerFactory = async (context: ListenerContext): Promise<RunningListener> => {
  // The service's Core keeps polling meters whoever looks (metrics want them): the web shell's
  // visibility reports are not passed on.
  const core = { ...context.core, setVisible: () => undefined };
  const shell = await startWebShell({ core, port: context.spec.port, log: context.log });
  return { name: 'web', lines: [`web: ${shell.url}`], close: () => shell.close() };
};

/**
 * `null`: not part of this build yet. The pdudaemon listener (src-main/serve/pdudaemon*.ts) plugs in
 * here as `pdudaemon: createPdudaemonListener` (or an adapter onto ListenerContext).
 */
export const LISTENERS: Record<ListenerName, ListenerFactory | null> = {
  web: webListener,
  api: startApiListener,
  pdudaemon: null,
};
