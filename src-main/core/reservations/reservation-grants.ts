/**
 * What a change on a controller would newly let switch, as the reservations see it: a unit user's
 * outlet access (users/create, users/update) and an AutoPing item's power cycle (autoping/save). Each is
 * checked like a switch of those outlets (Reservations.assertMayAct) before its request is queued, so
 * nobody but the holder can hand a reserved outlet to a new login on the unit or to the unit's own
 * watchdog.
 */
import type { AutopingItemInput, DeviceUser } from '../../../src-preload/model';

/** What a unit user may switch: every outlet, or these (1-based). */
type Power = 'all' | Set<number>;

interface UserPower {
  isAdmin?: boolean | undefined;
  isAllowed?: boolean | undefined;
  outletAccess?: readonly boolean[] | undefined;
}

/** A user who may not log in switches nothing; an administrator, everything; unknown access, anything. */
function powerOf(user: UserPower): Power {
  if (user.isAllowed === false) return new Set();
  if (user.isAdmin === true || user.outletAccess === undefined) return 'all';
  return new Set(user.outletAccess.flatMap((on, index) => (on ? [index + 1] : [])));
}

/** What `next` may switch that `before` could not ('all': possibly any outlet). */
function gained(before: Power, next: Power): 'all' | number[] {
  if (before === 'all') return [];
  if (next === 'all') return 'all';
  return [...next].filter((n) => !before.has(n)).sort((a, b) => a - b);
}

/** The outlets a new user could switch. */
export function grantedByNewUser(user: Required<UserPower>): 'all' | number[] {
  return gained(new Set(), powerOf(user));
}

/**
 * The outlets a change to a user newly lets them switch. `current` is the user as last read (absent:
 * not read, so all they may switch after the change counts as new). A change of password alone grants
 * nothing.
 */
export function grantedByUserChange(change: UserPower, current: DeviceUser | undefined): 'all' | number[] {
  if (change.isAdmin === undefined && change.isAllowed === undefined && change.outletAccess === undefined)
    return [];
  const next = powerOf({
    isAdmin: change.isAdmin ?? current?.isAdmin,
    isAllowed: change.isAllowed ?? current?.isAllowed,
    outletAccess: change.outletAccess ?? current?.outletAccess,
  });
  return gained(current ? powerOf(current) : new Set(), next);
}

/** The outlets an AutoPing item may switch: none while disabled; any when it runs a user function. */
export function cycledByAutoping(item: AutopingItemInput): 'all' | number[] {
  if (!item.enabled) return [];
  if (item.script !== '') return 'all';
  return [...new Set(item.outlets)].sort((a, b) => a - b);
}

/** Whether a grant names nothing to check. */
export function grantsNothing(outlets: 'all' | readonly number[]): boolean {
  return outlets !== 'all' && outlets.length === 0;
}
