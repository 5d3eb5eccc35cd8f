/** A bounded ring, oldest first: pushing onto a full ring drops (and returns) its oldest item. */
export class Ring<T> {
  readonly #items: (T | undefined)[];
  #start = 0;
  #count = 0;

  constructor(readonly capacity: number) {
    this.#items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.#count;
  }

  /** Add `item` as the newest; answers the oldest item it pushed out, if the ring was full. */
  push(item: T): T | undefined {
    if (this.capacity === 0) return item;
    if (this.#count < this.capacity) {
      this.#items[(this.#start + this.#count) % this.capacity] = item;
      this.#count++;
      return undefined;
    }
    const dropped = this.#items[this.#start];
    this.#items[this.#start] = item;
    this.#start = (this.#start + 1) % this.capacity;
    return dropped;
  }

  /** Newest first. */
  *newestFirst(): Generator<T> {
    for (let i = this.#count - 1; i >= 0; i--) yield this.#items[(this.#start + i) % this.capacity]!;
  }
}

/** Two sequences, each newest first by `id`, as one, newest first. */
export function* newestOfBoth<T extends { id: number }>(a: Iterator<T>, b: Iterator<T>): Generator<T> {
  let x = a.next();
  let y = b.next();
  while (!x.done || !y.done) {
    if (y.done || (!x.done && x.value.id > y.value.id)) {
      yield x.value as T;
      x = a.next();
    } else {
      yield y.value;
      y = b.next();
    }
  }
}
