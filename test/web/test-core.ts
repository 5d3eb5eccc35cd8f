import type { ControllerSummary, EventName, EventPayload } from '../../src-preload/contract';
import { createCore, type Core, MemoryStore } from '../../src-main/core/index';

/** The real Core, plus an `emit` so a test can push any event through a shell as the Core would. */
export interface TestCore extends Core {
  emit<K extends EventName>(name: K, payload: EventPayload<K>): void;
}

/**
 * The real Core on a MemoryStore, with `controllers` saved in it (as the registry would have written
 * them). Their secrets are not in its (memory) keychain, so the Core reports them as needing a password
 * and sends nothing to their addresses.
 */
export function testCore(options: { controllers?: ControllerSummary[] } = {}): TestCore {
  const store = new MemoryStore();
  if (options.controllers) store.set('controllers', options.controllers);
  const core = createCore({ shell: 'test', version: '0.1.0-test', store });
  const sinks = new Set<Parameters<Core['subscribe']>[0]>();
  return {
    ...core,
    subscribe(sink) {
      sinks.add(sink);
      const stop = core.subscribe(sink);
      return () => {
        sinks.delete(sink);
        stop();
      };
    },
    emit(name, payload) {
      for (const sink of sinks) sink(name, payload);
    },
  };
}

export function controllerSummary(id: string, name: string, order: number): ControllerSummary {
  return {
    id,
    name,
    url: `http://127.0.0.${order + 10}`,
    auth: 'digest',
    user: 'admin',
    hasSecret: true,
    fingerprint: null,
    colour: '#3b82f6',
    order,
    demo: false,
    mqttTopic: null,
  };
}
