/**
 * Telling when a rebooting controller is really back. A controller may still answer for a moment
 * after accepting the reboot, so one good answer is not enough: it is back once it answers after it
 * was seen down, or after it forgot Plugboard's digest nonce (it restarted), or — for a reboot that
 * never seemed to happen — after a quiet minute.
 */
export class RebootWatch {
  readonly since: number;
  #sawDown = false;
  readonly #challenges: number;

  /** `challenges`: the client's count of 401 challenges when the reboot was accepted. */
  constructor(since: number, challenges: number) {
    this.since = since;
    this.#challenges = challenges;
  }

  /** A probe failed: the controller is down (or not yet back). */
  down(): void {
    this.#sawDown = true;
  }

  /** A probe succeeded at `now`, the client having seen `challenges` 401s so far. */
  back(now: number, challenges: number, quietMs = 60_000): boolean {
    return this.#sawDown || challenges > this.#challenges || now - this.since >= quietMs;
  }

  givenUp(now: number, giveUpMs: number): boolean {
    return now - this.since >= giveUpMs;
  }
}
