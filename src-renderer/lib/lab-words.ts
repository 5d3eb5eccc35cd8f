import type { CallerInfo, LabSummary } from '../../src-preload/model';
import { scopeWords } from './account-form';
import { formatDateTime } from './format';

/** How a lab is reached now, in a word for its section's heading. */
export const LAB_STATUS_TEXT: Record<LabSummary['status'], string> = {
  'signed-out': 'signed out',
  connecting: 'connecting',
  online: 'online',
  offline: 'offline',
};

/** "Ada Lovelace (ada), operator of tag rack-7": who this computer is signed in to a lab as. */
export function accountWords(
  account: CallerInfo,
  nameOf: (controllerId: string) => string | undefined,
): string {
  const who =
    account.displayName && account.displayName !== account.who
      ? `${account.displayName} (${account.who})`
      : account.who;
  return `${who}, ${account.role} of ${scopeWords(account.scope, nameOf)}`;
}

/**
 * Why nothing of a lab can be switched from here now, or null when it is online: what the window shows
 * of it is what was last known, and it comes back by itself.
 */
export function labHoldReason(lab: LabSummary): string | null {
  if (lab.status === 'online' || lab.status === 'signed-out') return null;
  const seen = lab.lastSeen === null ? 'never reached yet' : `last seen ${formatDateTime(lab.lastSeen)}`;
  const state = lab.status === 'connecting' ? 'is being reached' : 'cannot be reached';
  return `${lab.name} ${state} (${seen}): what shows is what was last known, and nothing can be switched until it answers again. Plugboard reconnects by itself.`;
}
