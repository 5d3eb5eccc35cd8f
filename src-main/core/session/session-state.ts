/** Pure pieces of a controller's live state: the first state, outlets with their pending changes, statuses. */
import type { ControllerState, ControllerStatus, OutletState } from '../../../src-preload/model';
import type { PlugboardError } from '../../shared/errors';
import type { Outlet } from '../../dli/types';
import { pendingChange, type PendingOutlet } from './pending';

export function initialState(id: string): ControllerState {
  return {
    id,
    status: 'connecting',
    problem: null,
    identity: null,
    capabilities: null,
    outlets: [],
    meters: null,
    scripts: null,
    users: null,
    sshEnabled: null,
    relayTiming: { cycleDelay: null, sequenceDelay: null },
    lastUpdate: null,
    rebootingSince: null,
  };
}

/** The outlets as the window sees them: the controller's last answer plus what Plugboard is waiting for. */
export function outletStates(
  outlets: readonly Outlet[],
  access: readonly boolean[] | null,
  isAdmin: boolean,
  pending: ReadonlyMap<number, PendingOutlet>,
): OutletState[] {
  return outlets.map((outlet) => {
    const waiting = pending.get(outlet.number);
    return {
      ...outlet,
      access: access?.[outlet.number - 1] ?? isAdmin,
      pending: waiting ? pendingChange(waiting) : null,
      cycleEndsAt: waiting?.kind === 'cycle' ? waiting.cycleEndsAt : null,
    };
  });
}

/**
 * What a failed poll means for the controller's status, and whether polling should wait for the person
 * (retrying a wrong password can lock the user out; a changed certificate needs a decision).
 */
export function statusForError(error: PlugboardError): { status: ControllerStatus; pause: boolean } {
  // No secret to log in with (credentials-needed.ts): wait for the person, never retry without one.
  if (error.detail?.passwordNeeded === true) return { status: 'password_needed', pause: true };
  switch (error.code) {
    case 'AUTH_FAILED':
      return { status: 'auth_failed', pause: true };
    case 'TLS_CHANGED':
    case 'TLS_UNTRUSTED':
      return { status: 'tls_changed', pause: true };
    case 'API_DISABLED':
      return { status: 'api_disabled', pause: false };
    case 'UNREACHABLE':
    case 'TIMEOUT':
      return { status: 'offline', pause: false };
    default:
      return { status: 'error', pause: false };
  }
}
