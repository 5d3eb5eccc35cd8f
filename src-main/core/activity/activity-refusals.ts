/**
 * Refusals in the activity log: which entries are refusals (kept in a ring of their own), and what
 * makes two refusals the same one, counted into one entry.
 */
import type { ActivityEntry, Actor } from '../../../src-preload/model';

/** What of a refusal decides whether it repeats another. */
type Refusal = Pick<ActivityEntry, 'controllerId' | 'outlet' | 'action' | 'error'> & { actor: Actor };

/** One refusal entry in memory; `entry` is replaced (never changed) as its count grows. */
export interface RefusalSlot {
  key: string;
  entry: ActivityEntry;
  gone: boolean;
}

export const isRefusal = (entry: ActivityEntry): boolean =>
  entry.count !== undefined || (entry.action === 'refused' && entry.result === 'error');

/** What makes two refusals the same: who (door and name), what (controller, outlet, verb) and why (code, reservation). */
export function refusalKey(input: Refusal): string {
  const reservation = input.error?.detail?.reservationId;
  return [
    input.actor.door,
    input.actor.who,
    input.controllerId,
    input.outlet ?? '*',
    input.action,
    input.error?.code ?? '',
    typeof reservation === 'string' ? reservation : '',
  ].join('\u0000');
}
