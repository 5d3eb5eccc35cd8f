import type { Outlet } from '../../dli/types';

/** An outlet change nobody in Plugboard asked for: the controller's own page, the keypad, a script. */
export interface ObservedChange {
  outlet: number;
  /** As the activity log words it: "on", "off (temporary)", "cycle", "locked", `renamed to "PSU"`. */
  action: string;
}

/**
 * Differences between two polls that no pending Plugboard change explains (`skip` holds the outlets
 * that had one). The physical state catching up with the transient state is the relay's normal lag,
 * not a change; the relay going off while its transient state stays on is a cycle.
 */
export function outsideChanges(
  before: readonly Outlet[],
  after: readonly Outlet[],
  skip: ReadonlySet<number>,
): ObservedChange[] {
  const changes: ObservedChange[] = [];
  const previous = new Map(before.map((outlet) => [outlet.number, outlet]));
  for (const now of after) {
    const was = previous.get(now.number);
    if (!was || skip.has(now.number)) continue;
    const add = (action: string) => changes.push({ outlet: now.number, action });
    if (now.state !== was.state) add(now.state ? 'on' : 'off');
    else if (now.transientState !== was.transientState)
      add(now.transientState ? 'on (temporary)' : 'off (temporary)');
    else if (was.physicalState && !now.physicalState && now.transientState) add('cycle');
    if (now.locked !== was.locked) add(now.locked ? 'locked' : 'unlocked');
    if (now.name !== was.name) add(`renamed to "${now.name}"`);
  }
  return changes;
}
