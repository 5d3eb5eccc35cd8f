/**
 * The activity log's words: what a new entry is made of, what the Core adds to it, the actors of
 * Plugboard's own and of outside changes, the filters a reader gives, and the log's options.
 */
import type { ActivityDoor, ActivityEntry, Actor } from '../../../src-preload/model';
import type { Logger } from '../../shared/logging';
import type { Clock } from '../kernel/clock';
import type { ActivityRecords } from './activity-records';

export type NewActivity = Omit<
  ActivityEntry,
  'id' | 'time' | 'source' | 'who' | 'batch' | 'count' | 'lastTime'
> & {
  time?: number;
  actor: Actor;
};

/** What the Core adds to an entry as it is recorded: the outlet's name, a script's attribution. */
export interface ActivityEnrichment {
  /** The outlet's name now (null: not known). */
  outletName(controllerId: string, outlet: number): string | null;
  /** Who made a change seen on the unit, when Plugboard knows better than "outside" (a script it started). */
  attribute(entry: NewActivity): Actor | null;
  /** `scripts/start` started a thread (the changes it makes are attributed to it). */
  scriptStarted(controllerId: string, threadId: string, fn: string, actor: Actor): void;
}

/** Changes seen on the unit that Plugboard did not make. */
export const OUTSIDE_ACTOR: Actor = Object.freeze({ door: 'outside', who: 'outside Plugboard' });
/** Plugboard's own doing (a reboot noticed, meter ids carried over). */
export const SYSTEM_ACTOR: Actor = Object.freeze({ door: 'system', who: 'Plugboard' });

/** Entries about the lab service itself rather than one of its controllers (sign-ins, accounts, refusals). */
export const LAB_SERVICE = { controllerId: '', controllerName: 'the lab service', outlet: null } as const;

/** Which entries `list` gives (each field narrows; all absent: every entry). */
export interface ActivityFilter {
  controllerId?: string | undefined;
  limit?: number | undefined;
  outlet?: number | undefined;
  /** Entries whose outlet name (as recorded) contains this, case-insensitive. */
  outletName?: string | undefined;
  who?: string | undefined;
  door?: ActivityDoor | undefined;
  /** Epoch ms: entries from then on. */
  since?: number | undefined;
  /** Epoch ms: entries up to then. */
  until?: number | undefined;
  /** Only entries after this one (an id): the cursor of a reader that goes page by page. */
  after?: number | undefined;
  /** Newest first (the default), or oldest first: `limit` then takes the oldest. */
  order?: 'newest' | 'oldest' | undefined;
}

export interface ActivityLogOptions {
  clock: Clock;
  log: Logger;
  /** Entries of what was done (and seen) kept in memory and in the file (default 10 000). */
  limit?: number;
  /** Refusal entries kept besides them (default 1 000): they never take the place of the others. */
  refusalLimit?: number;
  /** Repeats of one refusal within this long of its first are counted into it, ms (default 60 000). */
  refusalWindowMs?: number;
  /** The JSON-lines file, without a store; null (and no store) keeps the log in memory only. */
  file?: string | null;
  /** The lab store's rows and the highest id in them (ids continue above it); the file is then unused. */
  stored?: { records: ActivityRecords; lastId: number } | null;
  /** Whether an entry goes to the store or file (demo controllers do not: they vanish at restart). */
  persist?: (entry: ActivityEntry) => boolean;
  /** A new entry, or a refusal entry whose count grew (same id: it replaces the one shown). */
  onAdded?: (entry: ActivityEntry) => void;
  /** How long appends are gathered before one write, ms (default 200). */
  flushDelayMs?: number;
  /** How long to wait before writing again after a write failed (a full disk), ms (default 5 000). */
  retryDelayMs?: number;
}
