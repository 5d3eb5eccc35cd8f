import type { ControllerState, OutletState } from '../../src-preload/model';
import { outletLabel } from './format';
import { statusSentence } from './status';

/** Short explanations shown on hover and focus: the three states of an outlet and its marks. */
export const EXPLAIN = {
  physical: 'Physical state: what the relay is doing right now, as the controller reports it.',
  state: 'Saved state (persistent): the controller returns the outlet to it after a reboot or a power loss.',
  transient:
    'Temporary state (transient): switched for now only; after a reboot the outlet goes back to its saved state.',
  locked: 'Locked on the controller: only its keypad or its own web page can change this outlet.',
  critical: 'Marked critical: Plugboard asks before switching it off or cycling it.',
  pending: 'Plugboard sent this change; the controller has not confirmed it yet.',
} as const;

/**
 * The line under a row when an outlet's three states differ: what it does now against what it returns to
 * after a restart (saved), in words; null when they agree (the power switch says it all then).
 */
export function stateNote(outlet: OutletState): string | null {
  const onOff = (on: boolean) => (on ? 'on' : 'off');
  const temporary =
    outlet.transientState !== outlet.state
      ? `Temporarily ${onOff(outlet.transientState)}: saved state ${onOff(outlet.state)}, so it goes back to ${onOff(outlet.state)} when the controller restarts.`
      : null;
  // During a cycle the countdown explains the relay being off; only a temporary state is worth a word.
  if (outlet.cycleEndsAt !== null) return temporary;
  if (outlet.physicalState !== outlet.transientState)
    return `The relay is ${onOff(outlet.physicalState)} and turns ${onOff(outlet.transientState)} in a moment (a cycle or the controller’s on-sequence delay).${temporary ? ` ${temporary}` : ''}`;
  return temporary;
}

/** The three states in one phrase, for the power switch's description. */
export function statesWords(outlet: OutletState): string {
  const onOff = (on: boolean) => (on ? 'on' : 'off');
  return `Physical ${onOff(outlet.physicalState)}, temporary ${onOff(outlet.transientState)}, saved ${onOff(outlet.state)}.`;
}

/**
 * Why no outlet of this controller can be switched right now (it is not online), or null; and whether
 * the controls come back by themselves. Polling pauses on a refused login and a changed certificate
 * until the person acts, so those say what to do instead of promising a recovery that does not come.
 */
export function controllerBlockReason(state: Pick<ControllerState, 'status'>): string | null {
  const said = statusSentence('The controller', state.status);
  switch (state.status) {
    case 'online':
      return null;
    case 'auth_failed':
      return `${said}: enter its password at the top of this page. Plugboard does not retry by itself, so the user is not locked out.`;
    case 'tls_changed':
      return `${said}: compare the fingerprint at the top of this page and trust it. Plugboard does not connect until then.`;
    case 'password_needed':
      return `${said}: enter it where Plugboard asks, at the top of the window.`;
    case 'rebooting':
      return `${said}: controls come back when it answers again.`;
    default:
      return `${said}: Plugboard keeps trying, and controls come back when it answers again.`;
  }
}

/** Why this outlet cannot be switched right now, or null when it can. */
export function blockReason(
  outlet: OutletState,
  state: Pick<ControllerState, 'status'>,
  user: string,
): string | null {
  const wide = controllerBlockReason(state);
  if (wide) return wide;
  if (outlet.locked) return EXPLAIN.locked;
  if (!outlet.access)
    return `${user ? `User “${user}”` : 'This login'} may not switch this outlet; an administrator can grant access on the Users tab.`;
  return null;
}

/** Why outlets cannot be renamed or their settings changed, or null when they can. */
export function renameBlockReason(state: Pick<ControllerState, 'status' | 'capabilities'>): string | null {
  if (state.status !== 'online') return `${statusSentence('The controller', state.status)}.`;
  if (!state.capabilities?.isAdmin)
    return 'Only an administrator can rename outlets or change their settings; Plugboard is logged in as a regular user.';
  return null;
}

/** What a pending change is waiting for, in words. */
export function pendingText(outlet: OutletState): string | null {
  const p = outlet.pending;
  if (!p) return null;
  // While the off-time counts down, the countdown is what the person waits for.
  if (p.kind === 'cycle')
    return outlet.cycleEndsAt !== null ? null : 'Waiting for the controller to confirm the cycle…';
  const what = p.kind === 'transientState' ? 'temporarily ' : '';
  return `Waiting for the controller to confirm: turning ${what}${p.target ? 'on' : 'off'}…`;
}

/** What a controller's reboot changes: the outlets whose relay is not at their saved state, named. */
export function rebootChanges(outlets: readonly OutletState[]): string {
  const changing = outlets.filter((o) => o.physicalState !== o.state);
  if (changing.length === 0) return 'Every outlet is at its saved state: none changes.';
  const named = changing.map((o) => `${outletLabel(o)} goes back ${o.state ? 'on' : 'off'}`);
  return `${named.length === 1 ? 'One outlet changes' : `${named.length} outlets change`}: ${named.join('; ')}.`;
}

/** How a change to several outlets is kept: saved (persistent) or temporary (transient). */
export type Keeping = 'saved' | 'temporary';

/** What a switch of the selection means, said in its confirmation and its result. */
export const KEEPING_WORDS: Record<Keeping, string> = {
  saved: 'saved: they stay so when the controller restarts',
  temporary: 'temporary: they go back to their saved states when the controller restarts',
};

/** "3 outlets" / "1 outlet". */
function outletCount(n: number): string {
  return `${n} outlet${n === 1 ? '' : 's'}`;
}

/** The confirmation's words for switching the selection on, off or each to its opposite. */
export function selectionQuestion(
  mode: 'on' | 'off' | 'flip',
  count: number,
  keeping: Keeping,
): { title: string; body: string; confirmLabel: string } {
  const what = mode === 'flip' ? 'each to its opposite' : mode;
  const title =
    mode === 'flip'
      ? `Flip ${outletCount(count)} (${keeping})?`
      : `Switch ${outletCount(count)} ${mode} (${keeping})?`;
  const how =
    keeping === 'saved'
      ? 'The change is saved: they stay so when the controller restarts.'
      : 'The change is temporary: they go back to their saved states when the controller restarts.';
  return {
    title,
    body: `${capitalFirst(outletCount(count))} will be switched ${what}. ${how}`,
    confirmLabel: mode === 'flip' ? `Flip, ${keeping}` : `Switch ${mode}, ${keeping}`,
  };
}

/** The result line after the controller answered: how many took the change, and how it is kept. */
export function selectionResult(
  mode: 'on' | 'off' | 'flip',
  worked: number,
  requested: number,
  keeping: Keeping,
): string {
  const what = mode === 'flip' ? 'flipped' : `switched ${mode}`;
  return `${worked} of ${outletCount(requested)} ${what}, ${KEEPING_WORDS[keeping]}. Each row shows when the controller confirms.`;
}

function capitalFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
