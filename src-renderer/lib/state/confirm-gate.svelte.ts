/** What a confirmation asks. `critical` names outlets that must be acknowledged one more time. */
export interface ConfirmQuestion {
  title: string;
  body: string;
  confirmLabel: string;
  /** Red confirm button: the action switches something off or removes something. */
  danger?: boolean;
  /** "outlet 2 (Server)", …: the person must tick a box naming them before confirming. */
  critical?: string[];
  /** Headings for `critical` when it names something other than outlets (e.g. Plugboard's own login). */
  criticalHeading?: string;
  acknowledge?: string;
  /**
   * Why this cannot be done (the controller would refuse it): shown instead of the way to confirm, so
   * the dialog can only be cancelled.
   */
  refusal?: string;
}

interface Asked extends ConfirmQuestion {
  resolve: (confirmed: boolean) => void;
}

/**
 * One question at a time, answered by the ConfirmDialog that renders it. `ask()` resolves true only when the
 * person confirmed; a newer question answers the older one with false.
 */
export class ConfirmGate {
  #current = $state.raw<Asked | null>(null);

  /** The question on screen, if any. */
  get current(): ConfirmQuestion | null {
    return this.#current;
  }

  ask(question: ConfirmQuestion): Promise<boolean> {
    this.#current?.resolve(false);
    return new Promise((resolve) => {
      this.#current = { ...question, resolve };
    });
  }

  answer(confirmed: boolean): void {
    const asked = this.#current;
    this.#current = null;
    asked?.resolve(confirmed);
  }
}
