/**
 * Plugboard's words for outlets and controller statuses, shared by both sides like the contract: the
 * Core's activity log, errors, notifications and tray, the REST client's errors, and the window all name
 * things the same way. Imports nothing of Plugboard's but the model.
 */
import type { ActivityDoor, ControllerStatus } from './model';

/** "outlet 3 (Scope)", or "outlet 3" when the outlet has no name or its default one ("Outlet 3"). */
export function outletLabel(number: number, name: string | undefined): string {
  const clean = name?.trim();
  return !clean || clean.toLowerCase() === `outlet ${number}`
    ? `outlet ${number}`
    : `outlet ${number} (${clean})`;
}

/** The first letter upper-case: an outlet label that starts a sentence ("Outlet 3 (Scope) on …"). */
export function capitalise(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

/** A controller's status in a word or two: next to its dot, read by screen readers, in the tray. */
export const STATUS_TEXT: Record<ControllerStatus, string> = {
  connecting: 'connecting',
  online: 'online',
  offline: 'offline',
  auth_failed: 'auth problem',
  api_disabled: 'API disabled',
  tls_changed: 'certificate changed',
  rebooting: 'rebooting',
  error: 'error',
  password_needed: 'password needed',
};

const STATUS_PHRASE: Record<ControllerStatus, string> = {
  connecting: 'is connecting',
  online: 'is online',
  offline: 'is offline',
  auth_failed: 'does not accept the saved login',
  api_disabled: 'has its REST-style API switched off',
  tls_changed: 'presents a different certificate',
  rebooting: 'is rebooting',
  error: 'answers with errors',
  password_needed: 'needs its password again',
};

/** "Bench A is offline", "The controller does not accept the saved login": a status in a sentence. */
export function statusSentence(subject: string, status: ControllerStatus): string {
  return `${subject} ${STATUS_PHRASE[status]}`;
}

/** The doors of the activity log, as a sentence says them ("by alice, CLI"). */
export const DOOR_TEXT: Record<ActivityDoor, string> = {
  window: 'window',
  tray: 'tray',
  web: 'web window',
  cli: 'CLI',
  'pdudaemon-http': 'pdudaemon HTTP',
  'pdudaemon-tcp': 'pdudaemon TCP',
  'json-api': 'JSON API',
  group: 'group',
  sequence: 'sequence',
  script: 'script',
  outside: 'outside Plugboard',
  system: 'Plugboard',
};

/** Who did it and through which door: "alice, CLI"; "outside Plugboard"; "Plugboard". */
export function actorText(entry: { source: ActivityDoor; who: string | null }): string {
  if (entry.source === 'outside' || entry.source === 'system') return DOOR_TEXT[entry.source];
  return entry.who ? `${entry.who}, ${DOOR_TEXT[entry.source]}` : DOOR_TEXT[entry.source];
}
