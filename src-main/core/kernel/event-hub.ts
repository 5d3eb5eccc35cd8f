import type { EventName, EventPayload, EventSink } from '../../../src-preload/contract';
import type { Logger } from '../../shared/logging';

/** Where the Core's events go: every subscribed shell. A failing sink never stops the others. */
export class EventHub {
  readonly #sinks = new Set<EventSink>();
  readonly #log: Logger;

  constructor(log: Logger) {
    this.#log = log;
  }

  subscribe(sink: EventSink): () => void {
    this.#sinks.add(sink);
    return () => this.#sinks.delete(sink);
  }

  emit<K extends EventName>(name: K, payload: EventPayload<K>): void {
    for (const sink of this.#sinks) {
      try {
        sink(name, payload);
      } catch (error) {
        this.#log(`an event sink failed on ${name}`, error);
      }
    }
  }

  clear(): void {
    this.#sinks.clear();
  }
}
