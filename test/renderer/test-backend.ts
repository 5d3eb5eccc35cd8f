import {
  callNames,
  splitCallName,
  type CallName,
  type EventName,
  type EventPayload,
  type PlugboardApi,
  type Result,
} from '../../src-preload/contract';

type Answer = (input: unknown) => Result<unknown> | Promise<Result<unknown>>;

/**
 * A `window.plugboard` for component tests of the whole window: built from the contract's call names like the
 * real preload, answering what a test sets and otherwise "not built yet" like an unfinished Core. Tests push
 * events with `emit` exactly as main would.
 */
export class TestBackend {
  readonly calls: { name: CallName; input: unknown }[] = [];
  readonly #answers = new Map<CallName, Answer>();
  readonly #listeners = new Map<string, Set<(payload: unknown) => void>>();
  readonly api: PlugboardApi;

  constructor() {
    const api: Record<string, Record<string, unknown>> = {};
    for (const name of callNames) {
      const [domain, action] = splitCallName(name);
      (api[domain] ??= {})[action] = async (input: unknown) => {
        this.calls.push({ name, input });
        const answer = this.#answers.get(name);
        return answer
          ? answer(input)
          : { ok: false, error: { code: 'INTERNAL', message: 'This part of Plugboard is not built yet.' } };
      };
    }
    const on = (name: string, listener: (payload: unknown) => void) => {
      const set = this.#listeners.get(name) ?? new Set();
      set.add(listener);
      this.#listeners.set(name, set);
      return () => void set.delete(listener);
    };
    this.api = { ...api, on } as unknown as PlugboardApi;
  }

  answer<K extends CallName>(
    name: K,
    answer: (input: unknown) => Result<unknown> | Promise<Result<unknown>>,
  ): this {
    this.#answers.set(name, answer);
    return this;
  }

  emit<K extends EventName>(name: K, payload: EventPayload<K>): void {
    for (const listener of this.#listeners.get(name) ?? []) listener(payload);
  }

  listening(name: EventName): number {
    return this.#listeners.get(name)?.size ?? 0;
  }

  callsOf(name: CallName): unknown[] {
    return this.calls.filter((c) => c.name === name).map((c) => c.input);
  }
}
