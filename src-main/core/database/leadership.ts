/**
 * Which of the lab's services leads: the one that holds the lease (service-lease.ts) polls and switches
 * the units; the others stand by, answer reads from the store and refuse changes (STANDBY).
 *
 * The leader's own validity is local and monotonic: it holds the lease until the moment it SENT the
 * renewal that succeeded, plus the lease, minus a margin. The database's expiry is counted from when it
 * ran that renewal, later, so the leader always stops first. A leader paused (SIGSTOP, a frozen VM) past
 * its lease knows it the moment it runs again, without asking the database; and a renewal that was
 * answered after such a pause does not revive it. Nothing here trusts the machines' wall clocks.
 */
import { PlugboardError } from '../../shared/errors';
import type { Logger } from '../../shared/logging';
import type { Clock, TimerHandle } from '../kernel/clock';
import type { LeaseHolder, LeaseStore } from './service-lease';

/** A service as clients know it: its name and the address they use for it (null: not known). */
export interface ServiceName {
  name: string;
  address: string | null;
}

/** The leadership port of the Core: absent, the Core always leads (the desktop app, a SQLite store). */
export interface Leadership {
  /** This service's name. */
  readonly self: string;
  /** Holds a lease still valid now (the local, monotonic check). */
  leads(): boolean;
  leader(): ServiceName | null;
  /** Throws the STANDBY PlugboardError unless leads(). */
  assertMayWrite(): void;
  /**
   * Told when this service begins (`leads` true: awaited before it counts as leading, so the takeover
   * work runs before any change is accepted) or stops leading; `previous` is who led before.
   */
  onChange(listener: (leads: boolean, previous: ServiceName | null) => void | Promise<void>): () => void;
  /** As the Core stops, after its last write to a unit and before its store closes: hand over at once. */
  release?(): Promise<void>;
}

/** The refusal a standby gives, in the same words from every door. */
export function standbyError(self: string, leader: ServiceName | null, reason: string): PlugboardError {
  const detail = { service: self, leader: leader?.name ?? null, leaderAddress: leader?.address ?? null };
  if (!leader)
    return new PlugboardError(
      'STANDBY',
      `This Plugboard service (${self}) does not lead the lab now (${reason}), so it switches nothing. Try again shortly.`,
      detail,
    );
  return new PlugboardError(
    'STANDBY',
    `This Plugboard service (${self}) is a standby: ${leader.name} leads the lab.${leader.address ? ` Send changes to ${leader.address}.` : ''}`,
    detail,
  );
}

export interface LeaseTiming {
  /** How long a claim holds the lease, by the database's clock. */
  leaseMs: number;
  /** How often the leader renews it. */
  renewMs: number;
  /** How often a standby tries to take it. */
  retryMs: number;
  /** How much earlier than the lease the leader stops trusting it. */
  marginMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = {
  leaseMs: 6000,
  renewMs: 2000,
  retryMs: 1000,
  marginMs: 1000,
};

export interface LeaseLeadershipOptions {
  lease: LeaseStore;
  self: ServiceName;
  /** The store, for a sentence ("PostgreSQL database … on db.lab:5432"). */
  where: string;
  clock: Clock;
  /** Local monotonic milliseconds (default performance.now: never moved by the wall clock). */
  monotonic?: () => number;
  log: Logger;
  timing?: Partial<LeaseTiming>;
}

type Listener = Parameters<Leadership['onChange']>[0];

/** The lease kept or competed for, one claim at a time, on the Core's clock. */
export class LeaseLeadership implements Leadership {
  readonly self: string;
  readonly #o: LeaseLeadershipOptions;
  readonly #timing: LeaseTiming;
  readonly #mono: () => number;
  readonly #listeners = new Set<Listener>();
  /** Told the listeners it leads (after their takeover work). */
  #leading = false;
  /** Holds the lease by the last claim, and its listeners are being told. */
  #becoming = false;
  #validUntil = -Infinity;
  /** The other service that holds the lease, by the last claim. */
  #other: LeaseHolder | null = null;
  /** Why no service is known to lead (for the refusal). */
  #reason = 'no service holds the lease now';
  #unreachable = false;
  /** When the claim under way was sent (monotonic), or null. */
  #claimSentAt: number | null = null;
  #lastLeader: ServiceName | null = null;
  #changes: Promise<void> = Promise.resolve();
  #tickTimer: TimerHandle | null = null;
  #expiryTimer: TimerHandle | null = null;
  #stopped = false;

  constructor(options: LeaseLeadershipOptions) {
    this.#o = options;
    this.self = options.self.name;
    this.#timing = { ...DEFAULT_LEASE_TIMING, ...options.timing };
    this.#mono = options.monotonic ?? (() => performance.now());
  }

  leads(): boolean {
    if (!this.#leading) return false;
    const now = this.#mono();
    if (now < this.#validUntil) return true;
    // A renewal sent within the lease and still unanswered: the store does not answer. One sent longer
    // ago than that (the process was paused meanwhile) says nothing about the store.
    if (this.#claimSentAt !== null && now - this.#claimSentAt < this.#timing.leaseMs)
      this.#unreachable = true;
    this.#lose('its lease ran out before it could renew it');
    return false;
  }

  leader(): ServiceName | null {
    if (this.leads()) return this.#o.self;
    return this.#other ? { name: this.#other.name, address: this.#other.address } : null;
  }

  assertMayWrite(): void {
    if (!this.leads()) throw standbyError(this.self, this.leader(), this.#reason);
  }

  onChange(listener: Listener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** The first claim, and what it set off (the takeover work), settled; then it keeps competing. */
  async start(): Promise<void> {
    await this.#tick();
    await this.#changes;
  }

  /** Stop competing; when it leads, give the lease up so a standby takes over at once. */
  async release(): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    this.#clearTimers();
    const held = this.#leading || this.#becoming;
    this.#leading = false;
    this.#becoming = false;
    this.#reason = 'it is stopping';
    if (!held) return;
    await this.#o.lease
      .release()
      .then(() => this.#o.log(`${this.self} gave up the lead as it stops.`))
      .catch((error: unknown) =>
        this.#o.log(`${this.self} could not give up the lead as it stops; it ends with its lease`, error),
      );
  }

  /** Whatever set off the last change (the takeover work) has settled. */
  settled(): Promise<void> {
    return this.#changes;
  }

  async #tick(): Promise<void> {
    this.#tickTimer = null;
    if (this.#stopped) return;
    const { leaseMs, renewMs, retryMs, marginMs } = this.#timing;
    const sentAt = this.#mono();
    this.#claimSentAt = sentAt;
    try {
      const claim = await this.#bounded(this.#o.lease.claim(leaseMs), leaseMs).finally(() => {
        this.#claimSentAt = null;
      });
      if (this.#stopped) return;
      if (this.#unreachable) this.#o.log(`The lab store ${this.#o.where} answers again.`);
      this.#unreachable = false;
      if (claim.held) {
        this.#validUntil = sentAt + leaseMs - marginMs;
        this.#other = null;
        if (!this.#leading && !this.#becoming && this.#mono() < this.#validUntil) this.#become(claim.epoch);
        this.#armExpiry();
      } else {
        const was = this.#other;
        this.#other = claim.holder;
        this.#reason = 'no service holds the lease now';
        if (claim.holder) this.#lastLeader = { name: claim.holder.name, address: claim.holder.address };
        if (this.#leading) this.#lose(`${claim.holder?.name ?? 'another service'} holds the lease now`);
        else if (claim.holder && (was?.name !== claim.holder.name || was.epoch !== claim.holder.epoch))
          this.#o.log(`standby: ${claim.holder.name} leads the lab.`);
      }
    } catch (error) {
      if (this.#stopped) return;
      this.#reason = `it cannot reach the lab store ${this.#o.where}`;
      this.#other = null;
      if (!this.#unreachable && !this.#leading)
        this.#o.log(
          `cannot reach the lab store ${this.#o.where}: ${this.self} switches nothing until it can.`,
          error,
        );
      this.#unreachable = true;
      // A leader keeps its lease until it runs out (the expiry timer, and this check at each try),
      // trying to renew meanwhile.
      this.leads();
    }
    if (!this.#stopped)
      this.#tickTimer = this.#o.clock.setTimeout(
        () => void this.#tick(),
        // A leader renews every renewMs from when it sent the last claim: a slow answer does not push
        // the next renewal past the lease.
        this.#leading || this.#becoming ? Math.max(0, sentAt + renewMs - this.#mono()) : retryMs,
      );
  }

  /** A claim that never answers (a network that drops packets) counts as failed after `ms`. */
  #bounded<T>(work: Promise<T>, ms: number): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const timer = this.#o.clock.setTimeout(
        () => reject(new Error(`no answer within ${Math.round(ms / 1000)} s`)),
        ms,
      );
      work.then(
        (value) => {
          this.#o.clock.clearTimeout(timer);
          resolve(value);
        },
        (error: unknown) => {
          this.#o.clock.clearTimeout(timer);
          reject(error instanceof Error ? error : new Error(String(error)));
        },
      );
    });
  }

  #become(epoch: number): void {
    this.#becoming = true;
    this.#reason = 'it is taking over the lab';
    const previous = this.#lastLeader;
    this.#changes = this.#changes.then(async () => {
      await this.#tell(true, previous);
      if (!this.#becoming || this.#stopped) return;
      this.#becoming = false;
      this.#leading = true;
      this.#lastLeader = this.#o.self;
      this.#o.log(`${this.self} leads the lab (lease ${epoch}).`);
      // The takeover took longer than the lease it had: it stops at once, as it would on a renewal.
      this.leads();
    });
  }

  #lose(why: string): void {
    if (!this.#leading) return;
    this.#leading = false;
    const other = this.#other;
    if (this.#unreachable) this.#reason = `it cannot reach the lab store ${this.#o.where}`;
    else this.#reason = why;
    this.#o.log(
      this.#unreachable
        ? `${this.self} lost the lead: cannot reach the lab store ${this.#o.where}: it switches nothing until it can.`
        : `${this.self} lost the lead: ${why}; ${other ? `${other.name} leads` : 'no service leads now'}.`,
    );
    this.#changes = this.#changes.then(() => this.#tell(false, this.#o.self));
  }

  /** A timer at the end of the local validity, so losing the lead is noticed without a request. */
  #armExpiry(): void {
    if (this.#expiryTimer) this.#o.clock.clearTimeout(this.#expiryTimer);
    this.#expiryTimer = this.#o.clock.setTimeout(
      () => {
        this.#expiryTimer = null;
        // A timer may fire a fraction of a millisecond before the monotonic clock reaches its end
        // (timers count whole milliseconds): still valid, it looks again then.
        if (this.leads()) this.#armExpiry();
      },
      Math.max(1, Math.ceil(this.#validUntil - this.#mono())),
    );
  }

  async #tell(leads: boolean, previous: ServiceName | null): Promise<void> {
    for (const listener of [...this.#listeners]) {
      try {
        await listener(leads, previous);
      } catch (error) {
        this.#o.log(
          `${this.self}: what follows ${leads ? 'taking the lead' : 'losing the lead'} failed`,
          error,
        );
      }
    }
  }

  #clearTimers(): void {
    if (this.#tickTimer) this.#o.clock.clearTimeout(this.#tickTimer);
    if (this.#expiryTimer) this.#o.clock.clearTimeout(this.#expiryTimer);
    this.#tickTimer = null;
    this.#expiryTimer = null;
  }
}
