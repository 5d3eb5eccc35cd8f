/** One outlet as the controller keeps it. */
export interface OutletRecord {
  name: string;
  /** Persistent state: restored after a reboot. */
  state: boolean;
  /** Temporary state: what the outlet should be now; reverts to `state` on reboot. */
  transientState: boolean;
  /** What the relay really is; follows `transientState` after on-sequence and cycle delays. */
  physicalState: boolean;
  locked: boolean;
  critical: boolean;
  /** Per-outlet cycle off-time in seconds; null = the controller's `cycle_delay`. */
  cycleDelay: number | null;
}

export interface RelayOptions {
  outlets: number;
  /** Default cycle off-time, seconds. */
  cycleDelay: number;
  /** Delay between outlets switched on together, seconds. */
  sequenceDelay: number;
  /** Initial persistent (= transient = physical) state per outlet. */
  initialStates: boolean[];
  /** During a cycle's off-time the transient state stays on (default) or follows the relay off. */
  cycleTransient?: 'stays-on' | 'follows-relay';
}

type PhysicalListener = (index: number, on: boolean) => void;

/**
 * The relay board: outlet records plus the timing that makes the physical state lag. Switching on is
 * spread out by the on-sequence delay (each switch-on takes the next free slot, so outlets switched on
 * together come on one after another); switching off is immediate; a cycle holds the relay off for the
 * outlet's cycle delay and then switches it on again through the same sequence.
 */
export class Relay {
  readonly outlets: OutletRecord[];
  cycleDelay: number;
  sequenceDelay: number;
  private readonly onTimers: (NodeJS.Timeout | undefined)[];
  private readonly cycleTimers: (NodeJS.Timeout | undefined)[];
  private nextOnSlot = 0;
  private readonly listeners = new Set<PhysicalListener>();
  private readonly followsRelay: boolean;

  constructor(options: RelayOptions) {
    this.followsRelay = options.cycleTransient === 'follows-relay';
    this.cycleDelay = options.cycleDelay;
    this.sequenceDelay = options.sequenceDelay;
    this.outlets = Array.from({ length: options.outlets }, (_, i) => ({
      name: `Outlet ${i + 1}`,
      state: options.initialStates[i] ?? false,
      transientState: options.initialStates[i] ?? false,
      physicalState: options.initialStates[i] ?? false,
      locked: false,
      critical: false,
      cycleDelay: null,
    }));
    this.onTimers = this.outlets.map(() => undefined);
    this.cycleTimers = this.outlets.map(() => undefined);
  }

  get count(): number {
    return this.outlets.length;
  }

  outlet(index: number): OutletRecord {
    const outlet = this.outlets[index];
    if (!outlet) throw new RangeError(`No outlet ${index}`);
    return outlet;
  }

  /** Called just before a relay changes (the meters integrate energy up to that moment). */
  onPhysicalChange(listener: PhysicalListener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Persistent switch: remembered across reboots, and switches the outlet now. */
  setState(index: number, on: boolean): void {
    const outlet = this.outlet(index);
    outlet.state = on;
    outlet.transientState = on;
    this.drive(index, true);
  }

  /** Temporary switch; `sequenced: false` switches on at once (simultaneous switching). */
  setTransient(index: number, on: boolean, sequenced = true): void {
    this.outlet(index).transientState = on;
    this.drive(index, sequenced);
  }

  isCycling(index: number): boolean {
    return this.cycleTimers[index] !== undefined;
  }

  /** Off, wait the cycle delay, on again. Returns false (and does nothing) when the outlet is off. */
  cycle(index: number): boolean {
    const outlet = this.outlet(index);
    if (!outlet.transientState) return false;
    this.cancelOn(index);
    this.cancelCycle(index);
    this.setPhysical(index, false);
    if (this.followsRelay) outlet.transientState = false;
    const seconds = outlet.cycleDelay ?? this.cycleDelay;
    this.cycleTimers[index] = setTimeout(() => {
      this.cycleTimers[index] = undefined;
      // An outlet locked during its off-time stays off.
      outlet.transientState = this.followsRelay ? !outlet.locked : outlet.transientState && !outlet.locked;
      this.drive(index, true);
    }, seconds * 1000);
    return true;
  }

  /** After a reboot: every transient state reverts to the persistent one. */
  revertTransientStates(): void {
    for (let i = 0; i < this.count; i++) {
      this.cancelCycle(i);
      this.outlet(i).transientState = this.outlet(i).state;
    }
    for (let i = 0; i < this.count; i++) this.drive(i, true);
  }

  /** True when every relay is where its transient state says and nothing is pending. */
  settled(): boolean {
    return this.outlets.every(
      (outlet, i) =>
        outlet.physicalState === outlet.transientState && !this.isCycling(i) && !this.onTimers[i],
    );
  }

  dispose(): void {
    for (let i = 0; i < this.count; i++) {
      this.cancelOn(i);
      this.cancelCycle(i);
    }
    this.listeners.clear();
  }

  private drive(index: number, sequenced: boolean): void {
    const outlet = this.outlet(index);
    if (this.isCycling(index)) {
      // Stays-on: a cycle ends by itself unless switched off. Follows-relay: any write during the
      // off-time (off, or on now) ends the cycle.
      if (outlet.transientState && !this.followsRelay) return;
      this.cancelCycle(index);
    }
    this.cancelOn(index);
    if (!outlet.transientState) {
      this.setPhysical(index, false);
      return;
    }
    if (outlet.physicalState) return;
    const now = Date.now();
    const slot = sequenced ? Math.max(now, this.nextOnSlot) : now;
    if (sequenced) this.nextOnSlot = slot + this.sequenceDelay * 1000;
    if (slot <= now) {
      this.setPhysical(index, true);
      return;
    }
    this.onTimers[index] = setTimeout(() => {
      this.onTimers[index] = undefined;
      if (outlet.transientState && !this.isCycling(index)) this.setPhysical(index, true);
    }, slot - now);
  }

  private setPhysical(index: number, on: boolean): void {
    const outlet = this.outlet(index);
    if (outlet.physicalState === on) return;
    for (const listener of this.listeners) listener(index, on);
    outlet.physicalState = on;
  }

  private cancelOn(index: number): void {
    clearTimeout(this.onTimers[index]);
    this.onTimers[index] = undefined;
  }

  private cancelCycle(index: number): void {
    clearTimeout(this.cycleTimers[index]);
    this.cycleTimers[index] = undefined;
  }
}
