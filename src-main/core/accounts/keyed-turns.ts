/**
 * Work done one at a time per key: a run waits for every earlier run that shares one of its keys (a
 * sign-in waits for the earlier tries of its name and of its address), and runs with no key in common
 * go side by side.
 */
export class KeyedTurns {
  readonly #tails = new Map<string, Promise<void>>();

  run<T>(keys: readonly string[], work: () => Promise<T>): Promise<T> {
    const before = keys.map((key) => this.#tails.get(key));
    const result = Promise.allSettled(before).then(work);
    const settled = result.then(
      () => undefined,
      () => undefined,
    );
    for (const key of keys) this.#tails.set(key, settled);
    void settled.then(() => {
      for (const key of keys) if (this.#tails.get(key) === settled) this.#tails.delete(key);
    });
    return result;
  }
}
