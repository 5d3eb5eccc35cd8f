/**
 * In-process lab services for tests: lab records opened in a folder, and `plugboard serve`'s api
 * listener on 127.0.0.1 (a free port) over a test's Core, HTTPS when given TLS material. `close()` (in the test file's afterEach, before
 * its folders are removed) closes the listeners, the harness's Cores and the records, in that order.
 */
import { openLabRecords, type Core, type LabRecords } from '../../src-main/core/index';
import { startApiListener } from '../../src-main/serve/api';
import type { ListenerContext, RunningListener } from '../../src-main/serve/listener';
import { ServiceMetrics } from '../../src-main/serve/metrics';
import { cleanUp } from '../core/harness';

/** What an api listener is started with: 127.0.0.1 on a free port, no allowlist, tokens or TLS unless `options` gives them. */
export function apiContext(core: Core, options: Partial<ListenerContext> = {}): ListenerContext {
  return {
    core,
    spec: { name: 'api', host: '127.0.0.1', port: 0 },
    allow: null,
    tokens: [],
    hostNames: [],
    tls: null,
    metrics: new ServiceMetrics(),
    log: () => undefined,
    ...options,
  };
}

export class ApiServices {
  private readonly opened: LabRecords[] = [];
  private readonly listeners: RunningListener[] = [];

  /** The lab records kept in `dir`. */
  async records(dir: string): Promise<LabRecords> {
    const records = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {});
    this.opened.push(records);
    return records;
  }

  /** An api listener for `core` (apiContext); its origin. */
  async listen(
    core: Core,
    options: Partial<ListenerContext> = {},
  ): Promise<{ origin: string; listener: RunningListener }> {
    const listener = await startApiListener(apiContext(core, options));
    this.listeners.push(listener);
    const scheme = options.tls ? 'https' : 'http';
    return { origin: new RegExp(`api: (${scheme}://[^/]+)/`).exec(listener.lines[0]!)![1]!, listener };
  }

  /** Stops the listeners only (a service that no longer answers); the records stay open. */
  async closeListeners(): Promise<void> {
    await Promise.all(this.listeners.splice(0).map((l) => l.close(1_000)));
  }

  async close(): Promise<void> {
    await this.closeListeners();
    await cleanUp();
    for (const records of this.opened.splice(0)) await records.store.close().catch(() => undefined);
  }
}
