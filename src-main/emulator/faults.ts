/**
 * A misbehaviour to inject. `drop`: destroy the connection without an answer. `hang`: never answer
 * (until the fault is cleared or the emulator closes). `error500`: answer 500. `malformedJson`: answer
 * 200 with broken JSON. drop/hang strike when the request arrives; error500/malformedJson only after
 * the request has logged in, so a digest client sees them on its authenticated request.
 */
export type FaultKind = 'drop' | 'hang' | 'error500' | 'malformedJson';

export interface FaultPlan {
  kind: FaultKind;
  /** How many requests it affects; default: every one until cleared. */
  times?: number;
  /** Only requests whose path (after `/restapi/`) starts with this, e.g. `relay/outlets/`. */
  path?: string;
  /** Only this method (after verb tunnelling is not considered: the wire method). */
  method?: string;
}

interface ActiveFault {
  plan: FaultPlan;
  remaining: number;
}

export class Faults {
  private readonly active: ActiveFault[] = [];

  add(plan: FaultPlan): void {
    const times = plan.times ?? Number.POSITIVE_INFINITY;
    if (!(times > 0)) throw new RangeError('times must be at least 1');
    this.active.push({ plan, remaining: times });
  }

  clear(): void {
    this.active.length = 0;
  }

  list(): FaultPlan[] {
    return this.active.map(({ plan, remaining }) => ({ ...plan, times: remaining }));
  }

  /** Takes (and counts down) the first fault of one of `kinds` that matches this request. */
  take(kinds: FaultKind[], method: string, url: string): FaultKind | null {
    const path = url.startsWith('/restapi/') ? url.slice('/restapi/'.length) : url;
    const index = this.active.findIndex(
      ({ plan }) =>
        kinds.includes(plan.kind) &&
        (plan.path === undefined || path.startsWith(plan.path)) &&
        (plan.method === undefined || plan.method.toUpperCase() === method),
    );
    const fault = this.active[index];
    if (!fault) return null;
    fault.remaining--;
    if (fault.remaining <= 0) this.active.splice(index, 1);
    return fault.plan.kind;
  }
}
