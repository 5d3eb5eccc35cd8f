/**
 * The rules every switch passes once, whatever the door (window, tray, command line, JSON API, the link,
 * pdudaemon, the web window, a group or a sequence), before its request is queued:
 *
 * 1. nobody else holds a reservation covering its outlets (RESERVED, reservations.ts);
 * 2. a critical outlet loses power (goes off, or cycles) only when the person confirmed it
 *    (CRITICAL_UNCONFIRMED, in one sentence below).
 *
 * The caller's role comes before both, in the permission table (handlers/permissions.ts). What passes
 * gets a permit, and the outlet actions take one: no path reaches the queue around these rules, and none
 * checks them twice. The refusal's words are a door's as they are; a door says how to confirm in its own
 * terms next to them (the window asks, the command line takes --yes, the JSON API `"confirmCritical": true`).
 */
import { PlugboardError } from '../../shared/errors';
import type { Actor } from '../../../src-preload/model';
import { capitalise, outletLabel } from '../../../src-preload/words';
import type { Outlet } from '../../dli/types';
import type { ControllerSession } from '../session/session';

/** One controller's part of a switch. */
export interface SwitchPart {
  session: ControllerSession;
  /** Every outlet the request changes ('all': every outlet of the controller). */
  outlets: 'all' | readonly number[];
  /** Those that lose power: switched off or cycled. */
  losing: 'all' | readonly number[];
}

declare const permitted: unique symbol;

/** Proof that a switch of these outlets passed the rules; only `permitSwitches` makes one. */
export interface SwitchPermit {
  readonly [permitted]: true;
  readonly controllerId: string;
}

/**
 * Refuse (RESERVED, then CRITICAL_UNCONFIRMED) unless every part may go: refused whole, before any
 * request leaves, so a switch across controllers is never half done by a rule.
 */
export async function permitSwitches(
  actor: Actor,
  parts: readonly SwitchPart[],
  confirmCritical: boolean,
): Promise<SwitchPermit[]> {
  const losing = (part: SwitchPart) => part.losing === 'all' || part.losing.length > 0;
  if (!confirmCritical) await Promise.all(parts.filter(losing).map(readOnce));
  for (const part of parts) part.session.assertMayAct(actor, part.outlets);
  if (!confirmCritical) refuseCritical(parts.filter(losing));
  return parts.map((part) => ({ controllerId: part.session.summary.id }) as SwitchPermit);
}

/** The same for one controller's part. */
export async function permitSwitch(
  actor: Actor,
  part: SwitchPart,
  confirmCritical: boolean,
): Promise<SwitchPermit> {
  const [permit] = await permitSwitches(actor, [part], confirmCritical);
  return permit!;
}

/** An action given a permit for another controller is Plugboard's own mistake, never sent. */
export function assertPermitFor(permit: SwitchPermit, session: ControllerSession): void {
  if (permit.controllerId !== session.summary.id)
    throw new Error(`a switch permit for ${permit.controllerId} was used on ${session.summary.id}`);
}

/**
 * A controller never read yet (a Core just started) is read before its outlets may lose power. Should
 * the read fail, the switch's own request goes the same way and fails there, on that controller alone.
 */
async function readOnce(part: SwitchPart): Promise<void> {
  if (part.session.lastOutlets === null) await part.session.refresh().catch(() => undefined);
}

function refuseCritical(parts: readonly SwitchPart[]): void {
  const found = parts.flatMap((part) => {
    const chosen = part.losing;
    const critical = (part.session.lastOutlets ?? []).filter(
      (o) => o.critical && (chosen === 'all' || chosen.includes(o.number)),
    );
    return critical.length ? [{ session: part.session, critical }] : [];
  });
  if (found.length === 0) return;
  throw new PlugboardError(
    'CRITICAL_UNCONFIRMED',
    criticalSentence(found.map((f) => ({ controller: f.session.summary.name, outlets: f.critical }))),
    {
      confirmCritical: true,
      outlets: found.flatMap((f) => f.critical.map((o) => `${f.session.summary.id}:${o.number}`)),
    },
  );
}

/**
 * The one sentence of the refusal: "Outlet 1 (DUT power) on Bench A is marked critical, so nothing was
 * switched: confirm that it may lose power, then ask again."
 */
export function criticalSentence(
  found: readonly { controller: string; outlets: readonly Pick<Outlet, 'number' | 'name'>[] }[],
): string {
  const count = found.reduce((sum, f) => sum + f.outlets.length, 0);
  const each = found.map(({ controller, outlets }) => {
    const labels = outlets.map((o) => outletLabel(o.number, o.name).replace(/^outlet /, ''));
    return `${outlets.length === 1 ? 'outlet' : 'outlets'} ${listed(labels)} on ${controller}`;
  });
  const one = count === 1;
  return `${capitalise(listed(each))} ${one ? 'is' : 'are'} marked critical, so nothing was switched: confirm that ${one ? 'it' : 'they'} may lose power, then ask again.`;
}

/** "a", "a and b", "a, b and c". */
function listed(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`;
}
