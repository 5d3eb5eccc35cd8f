import type { ControllerSummary, EventName, EventPayload, EventSink } from '../../src-preload/contract';
import { createCore, type Core } from '../../src-main/core/index';
import { MemoryStore } from '../../src-main/core/ports';

/** The real Core, plus an `emit` so a test can push an event through a shell as the Core would. */
export interface TestCore extends Core {
  emit<K extends EventName>(name: K, payload: EventPayload<K>): void;
}

/**
 * The real Core on a MemoryStore. The Core does not yet emit events of its own accord, so tests
 * use `emit`; `controllers`, when given, is what the controller calls answer (the registry that
 * will own that list is not wired into the Core yet).
 */
export function testCore(options: { controllers?: ControllerSummary[] } = {}): TestCore {
  const core = createCore({ shell: 'test', version: '0.1.0-test', store: new MemoryStore() });
  const sinks = new Set<EventSink>();
  const handlers = { ...core.handlers };
  const controllers = options.controllers;
  if (controllers) {
    handlers['controllers/list'] = async () => structuredClone(controllers);
    handlers['app/snapshot'] = async (input) => ({
      ...(await core.handlers['app/snapshot'](input)),
      controllers: structuredClone(controllers),
    });
  }
  return {
    handlers,
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
    dispose: () => core.dispose(),
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
  };
}
