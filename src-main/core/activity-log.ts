/**
 * The activity log: everything done through Plugboard and every outside change it noticed. The last
 * `limit` entries stay in memory (a ring); entries are also appended to a JSON-lines file in the config
 * folder so the log survives a restart. Appends are batched off the action path (an action never waits
 * for the disk), the file is compacted back to `limit` entries once it holds twice that, and bad lines
 * (a crash mid-write, a hand edit) are skipped. Entries hold no secrets by construction: names, verbs
 * and error messages, which never quote a password or token.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { appendFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import * as v from 'valibot';
import {
  ACTIVITY_DOORS,
  ERROR_CODES,
  type ActivityDoor,
  type ActivityEntry,
  type Actor,
} from '../../src-preload/model';
import { ActivityBatches } from './activity-batches';
import type { Clock, TimerHandle } from './clock';
import { APPEND_NO_LINK, WRITE_NO_LINK } from '../shared/config-folder';
import type { Logger } from '../shared/logging';

export type NewActivity = Omit<ActivityEntry, 'id' | 'time' | 'source' | 'who' | 'batch'> & {
  time?: number;
  actor: Actor;
};

/** What the Core adds to an entry as it is recorded (issue 16): the outlet's name, a script's attribution. */
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
}

export interface ActivityLogOptions {
  clock: Clock;
  log: Logger;
  /** Entries kept in memory and in the file (default 10 000). */
  limit?: number;
  /** The JSON-lines file; null keeps the log in memory only. */
  file?: string | null;
  /** Whether an entry goes to the file (demo controllers do not: they vanish at restart). */
  persist?: (entry: ActivityEntry) => boolean;
  onAdded?: (entry: ActivityEntry) => void;
  /** How long appends are gathered before one write, ms (default 200). */
  flushDelayMs?: number;
}

const entrySchema = v.object({
  id: v.pipe(v.number(), v.safeInteger(), v.minValue(1)),
  time: v.pipe(v.number(), v.finite()),
  controllerId: v.string(),
  controllerName: v.string(),
  outlet: v.nullable(v.pipe(v.number(), v.integer())),
  action: v.string(),
  source: v.picklist(ACTIVITY_DOORS),
  who: v.optional(v.nullable(v.string()), null),
  result: v.picklist(['ok', 'error', 'observed']),
  error: v.nullable(
    v.object({
      code: v.picklist(ERROR_CODES),
      message: v.string(),
      detail: v.optional(v.record(v.string(), v.union([v.string(), v.number(), v.boolean(), v.null()]))),
    }),
  ),
  outletName: v.optional(v.nullable(v.string())),
  batch: v.optional(v.pipe(v.number(), v.safeInteger(), v.minValue(1))),
});

export class ActivityLog {
  readonly #options: ActivityLogOptions;
  readonly #limit: number;
  readonly #ring: (ActivityEntry | undefined)[];
  #start = 0;
  #count = 0;
  #nextId = 1;
  /** Entries waiting for the next write to the file. */
  #queued: ActivityEntry[] = [];
  #timer: TimerHandle | null = null;
  #writing: Promise<void> = Promise.resolve();
  #fileLines = 0;
  #enrichment: ActivityEnrichment | null = null;
  readonly #batches = new ActivityBatches();

  constructor(options: ActivityLogOptions) {
    this.#options = options;
    this.#limit = options.limit ?? 10_000;
    this.#ring = new Array<ActivityEntry | undefined>(this.#limit);
    // Read at start, synchronously: a few hundred kilobytes, and ids must continue before any new entry.
    if (options.file) this.#load(options.file);
  }

  get size(): number {
    return this.#count;
  }

  /** Name outlets and attribute outside changes from now on (wired once the sessions exist). */
  enrich(enrichment: ActivityEnrichment): void {
    this.#enrichment = enrichment;
  }

  /** Run one action that sends several requests as one batch (see ActivityBatches.asOneAction). */
  asOneAction<T>(run: () => Promise<T>): Promise<T> {
    return this.#batches.asOneAction(run);
  }

  /** A script thread Plugboard started, on `actor`'s behalf (see fleet-scripts.ts for the rule). */
  scriptStarted(controllerId: string, threadId: string, fn: string, actor: Actor): void {
    this.#enrichment?.scriptStarted(controllerId, threadId, fn, actor);
  }

  add(input: NewActivity): ActivityEntry {
    const enrich = this.#enrichment;
    const actor = (input.actor.door === 'outside' ? enrich?.attribute(input) : null) ?? input.actor;
    const id = this.#nextId++;
    const outletName =
      input.outletName ??
      (input.outlet === null ? null : (enrich?.outletName(input.controllerId, input.outlet) ?? null));
    const entry: ActivityEntry = {
      id,
      time: input.time ?? this.#options.clock.now(),
      controllerId: input.controllerId,
      controllerName: input.controllerName,
      outlet: input.outlet,
      action: input.action,
      source: actor.door,
      who: actor.who,
      result: input.result,
      error: input.error,
      ...(outletName !== null ? { outletName } : {}),
      ...(input.outlet !== null ? { batch: this.#batches.of(input, actor, id) } : {}),
    };
    this.#push(entry);
    if (this.#options.file && (this.#options.persist?.(entry) ?? true)) {
      this.#queued.push(entry);
      this.#scheduleFlush();
    }
    this.#options.onAdded?.(entry);
    return entry;
  }

  /**
   * Newest first, at most `limit`, optionally of one controller, outlet (number or name), person or
   * door, or within [`since`, `until`].
   */
  list(filter: ActivityFilter = {}): ActivityEntry[] {
    const limit = filter.limit ?? this.#limit;
    const who = filter.who?.toLowerCase();
    const outletName = filter.outletName?.toLowerCase();
    const out: ActivityEntry[] = [];
    for (let i = this.#count - 1; i >= 0 && out.length < limit; i--) {
      const entry = this.#ring[(this.#start + i) % this.#limit]!;
      if (filter.since !== undefined && entry.time < filter.since) continue;
      if (filter.until !== undefined && entry.time > filter.until) continue;
      if (outletName !== undefined && !entry.outletName?.toLowerCase().includes(outletName)) continue;
      if (filter.controllerId !== undefined && entry.controllerId !== filter.controllerId) continue;
      if (filter.outlet !== undefined && entry.outlet !== filter.outlet) continue;
      if (filter.door !== undefined && entry.source !== filter.door) continue;
      if (who !== undefined && entry.who?.toLowerCase() !== who) continue;
      out.push(entry);
    }
    return out;
  }

  /** Write what is queued; resolves when it is on disk. */
  flush(): Promise<void> {
    if (this.#timer !== null) {
      this.#options.clock.clearTimeout(this.#timer);
      this.#timer = null;
    }
    const file = this.#options.file;
    if (!file || this.#queued.length === 0) return this.#writing;
    const batch = this.#queued.splice(0);
    this.#writing = this.#writing.then(async () => {
      try {
        mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
        await appendFile(file, jsonLines(batch), { encoding: 'utf8', mode: 0o600, flag: APPEND_NO_LINK });
        this.#fileLines += batch.length;
        if (this.#fileLines >= 2 * this.#limit) await this.#compact(file, batch.at(-1)!.id);
      } catch (error) {
        this.#options.log('could not write the activity log', error);
      }
    });
    return this.#writing;
  }

  #push(entry: ActivityEntry): void {
    if (this.#count < this.#limit) {
      this.#ring[(this.#start + this.#count) % this.#limit] = entry;
      this.#count++;
    } else {
      this.#ring[this.#start] = entry;
      this.#start = (this.#start + 1) % this.#limit;
    }
  }

  #scheduleFlush(): void {
    if (this.#timer !== null) return;
    const handle = this.#options.clock.setTimeout(() => {
      this.#timer = null;
      void this.flush();
    }, this.#options.flushDelayMs ?? 200);
    handle.unref?.();
    this.#timer = handle;
  }

  /**
   * Rewrite the file with what memory holds up to entry `upTo` (persisted entries only), atomically.
   * Newer entries are still queued: the next flush appends them, so the file must not hold them yet.
   */
  async #compact(file: string, upTo: number): Promise<void> {
    const keep = this.list()
      .reverse()
      .filter((entry) => entry.id <= upTo && (this.#options.persist?.(entry) ?? true));
    const temporary = `${file}.${process.pid}.tmp`;
    await writeFile(temporary, jsonLines(keep), { encoding: 'utf8', mode: 0o600, flag: WRITE_NO_LINK });
    await rename(temporary, file);
    this.#fileLines = keep.length;
  }

  #load(file: string): void {
    let text: string;
    try {
      text = readFileSync(file, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT')
        this.#options.log('could not read the activity log; starting a new one', error);
      return;
    }
    const lines = text.split('\n').filter((line) => line.trim() !== '');
    let skipped = 0;
    const entries: ActivityEntry[] = [];
    for (const line of lines.slice(-this.#limit * 2)) {
      try {
        const parsed = v.safeParse(entrySchema, JSON.parse(line));
        if (parsed.success) entries.push(parsed.output as ActivityEntry);
        else skipped++;
      } catch {
        skipped++;
      }
    }
    if (skipped) this.#options.log(`skipped ${skipped} unreadable line(s) of the activity log`);
    entries.sort((a, b) => a.id - b.id);
    for (const entry of entries.slice(-this.#limit)) this.#push(entry);
    this.#nextId = (entries.at(-1)?.id ?? 0) + 1;
    this.#fileLines = lines.length;
  }
}

/** JSON lines, one entry each, every line ended. */
function jsonLines(entries: readonly ActivityEntry[]): string {
  return entries.map((entry) => `${JSON.stringify(entry)}\n`).join('');
}
