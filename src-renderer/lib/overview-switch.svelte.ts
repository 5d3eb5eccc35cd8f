/**
 * Switching from the Overview. On is one press. Off is deliberate: the first press
 * arms the tile ("press again to switch off"), a second press on the same tile within ARM_MS switches
 * it; anything else lets the arm lapse. A critical outlet skips the arm and asks the same confirmation
 * as the outlet rows (ConfirmDialog, with the critical outlet to tick).
 */
import type { ContractError, ControllerSummary, OutletState } from '../../src-preload/model';
import { outletLabel } from './format';
import type { ConfirmGate } from './state/confirm-gate.svelte';
import { clock } from './state/clock.svelte';
import type { ControllerActions } from './state/controller-actions';

/** How long an armed tile waits for its second press. */
export const ARM_MS = 4000;

interface Armed {
  controllerId: string;
  outlet: number;
  until: number;
}

/** The one armed tile of the whole Overview (arming another disarms the first). */
export class OffArming {
  #armed = $state.raw<Armed | null>(null);

  /** Whether this tile waits for its second press. Only the armed tile reads the clock, so only it ticks. */
  isArmed(controllerId: string, outlet: number): boolean {
    const armed = this.#armed;
    if (armed === null || armed.controllerId !== controllerId || armed.outlet !== outlet) return false;
    return clock.now < armed.until;
  }

  /** What the armed tile is, for the announcement; null when none (or it lapsed). */
  get current(): Armed | null {
    const armed = this.#armed;
    return armed !== null && clock.now < armed.until ? armed : null;
  }

  /** A press on an "on" tile: true means "switch it off now" (second press in time); false: now armed. */
  press(controllerId: string, outlet: number): boolean {
    if (this.isArmed(controllerId, outlet)) {
      this.#armed = null;
      return true;
    }
    this.#armed = { controllerId, outlet, until: Date.now() + ARM_MS };
    return false;
  }

  disarm(): void {
    this.#armed = null;
  }
}

export interface SwitchParts {
  summary: ControllerSummary;
  actions: Pick<ControllerActions, 'set'>;
  gate: ConfirmGate;
  arming: OffArming;
}

/** One controller's switching from the Overview: which outlet is in flight and what went wrong. */
export class OverviewSwitch {
  sending = $state<number | null>(null);
  failure = $state<ContractError | null>(null);

  /** `parts` is read at each press: the component's props, which may change. */
  constructor(private readonly parts: () => SwitchParts) {}

  /** A press on a tile. `blocked`: why it cannot be switched (then nothing happens; the title says why). */
  async press(outlet: OutletState, blocked: string | null): Promise<void> {
    if (blocked !== null || this.sending !== null) return;
    const { summary, actions, gate, arming } = this.parts();
    const on = !outlet.physicalState;
    if (!on && outlet.critical) {
      arming.disarm();
      const label = outletLabel(outlet);
      const ok = await gate.ask({
        title: `Switch off ${label} on ${summary.name}?`,
        body: 'This outlet is marked critical. Whatever it powers goes off.',
        confirmLabel: 'Switch off',
        danger: true,
        critical: [label],
      });
      if (!ok) return;
    } else if (!on) {
      if (!arming.press(summary.id, outlet.number)) return;
    } else {
      arming.disarm();
    }
    this.sending = outlet.number;
    this.failure = null;
    // Asked above whenever it is critical and going off: the person's answer goes with the call.
    const result = await actions.set([outlet.number], on, false, !on && outlet.critical);
    this.sending = null;
    if (!result.ok) this.failure = result.error;
    else if (result.value.failed[0]) this.failure = result.value.failed[0].error;
  }
}
