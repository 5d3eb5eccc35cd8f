/**
 * One lab as a desk reaches it: its session (from the keychain), the remote link to the service that
 * leads (a lab's addresses are its services; a standby names the leader), what was last known of its
 * Core, and its status for the window. A link that closes or a service that does not answer makes the
 * lab offline; it connects again by itself, 1 s after, doubling to 30 s. A session the service refuses
 * makes it signed out, with the service's sentence. It never talks to the lab's units.
 */
import { callNames, type CallName } from '../../src-preload/contract';
import type { CallerInfo, ContractError, LabStatus, LabSummary } from '../../src-preload/model';
import type { Clock, TimerHandle } from '../core/index';
import { connectRemoteCore, type CoreLink, type LinkActor } from '../link';
import type { ServiceAddress } from '../link/service-address';
import { forgetSession, keptSession, type SessionKeychain } from '../link/service-session';
import { isPlugboardError, PlugboardError } from '../shared/errors';
import type { Logger } from '../shared/logging';
import { applyLabEvent, type LastKnown } from './last-known';
import { labAddresses, type LabRecord } from './lab-records';
import { leadingService, offline, postToLab, unreachable } from './lab-service';

export const FIRST_RETRY_MS = 1_000;
export const LAST_RETRY_MS = 30_000;

export interface LabPorts {
  secrets: SessionKeychain;
  clock: Clock;
  log: Logger;
  /** The lab's summary changed (the desk pushes `labs/changed`). */
  changed(): void;
  /** One event of the lab's Core (the desk pushes it as `labs/event`). */
  event(lab: string, name: string, payload: unknown): void;
}

/** Who the desk's own reads (whoami, snapshot) act as on the link: the account, at the window. */
const DESK_READS: LinkActor = Object.freeze({ door: 'window', who: 'desk' });

export class LabConnection {
  #status: LabStatus = 'signed-out';
  #service: string | null = null;
  #account: CallerInfo | null = null;
  #provider: { label: string } | null = null;
  #lastSeen: number | null = null;
  #problem: ContractError | null = null;
  #token: string | null = null;
  #link: CoreLink | null = null;
  #known: LastKnown | null = null;
  #timer: TimerHandle | null = null;
  #retryMs = FIRST_RETRY_MS;
  #attempt: Promise<void> | null = null;
  #stopped = false;

  constructor(
    public record: LabRecord,
    private readonly ports: LabPorts,
  ) {}

  get addresses(): ServiceAddress[] {
    return labAddresses(this.record);
  }

  get status(): LabStatus {
    return this.#status;
  }

  summary(): LabSummary {
    return {
      id: this.record.id,
      name: this.record.name,
      addresses: [...this.record.addresses],
      fingerprints: [...this.record.fingerprints],
      status: this.#status,
      service: this.#service,
      account: this.#account,
      provider: this.#provider,
      lastSeen: this.#lastSeen,
      problem: this.#problem,
    };
  }

  lastKnown(): LastKnown | null {
    return this.#known;
  }

  setProvider(provider: { label: string } | null): void {
    this.#provider = provider;
  }

  /** At start or after add: the session the keychain keeps for the lab's addresses (the CLI's too). */
  async resume(): Promise<void> {
    const kept = await keptSession(this.ports.secrets, this.addresses).catch((error: unknown) => {
      this.ports.log(`The keychain did not answer for the lab ${this.record.name}`, error);
      return null;
    });
    if (kept && !this.#stopped) await this.useSession(kept.token);
  }

  /** A new session (kept in the keychain already): connect with it. */
  async useSession(token: string): Promise<void> {
    this.#token = token;
    this.#problem = null;
    this.#retryMs = FIRST_RETRY_MS;
    await this.connect();
  }

  /** Connect now (one attempt at a time); on failure the lab is offline and retries by itself. */
  connect(): Promise<void> {
    this.#attempt ??= this.#connect().finally(() => (this.#attempt = null));
    return this.#attempt;
  }

  async #connect(): Promise<void> {
    const token = this.#token;
    if (token === null || this.#stopped) return;
    this.#clearTimer();
    this.#status = 'connecting';
    this.ports.changed();
    let link: CoreLink | null = null;
    try {
      const { address, provider } = await leadingService(this.record.name, this.addresses, token);
      this.#provider = provider ?? this.#provider;
      link = await connectRemoteCore(address.url, { token, fingerprint: address.fingerprint });
      const opened = link;
      opened.subscribe((name, payload) => {
        if (this.#link !== opened) return;
        this.#lastSeen = this.ports.clock.now();
        if (this.#known) this.#known = applyLabEvent(this.#known, name, payload);
        this.ports.event(this.record.id, name, payload);
      });
      const reads = opened.handlersAs(DESK_READS);
      const [account, snapshot, reservations] = await Promise.all([
        reads['app/whoami']({}),
        reads['app/snapshot']({}),
        reads['reservations/list']({}),
      ]);
      if (this.#token !== token || this.#stopped) {
        await opened.close();
        return;
      }
      this.#link = opened;
      this.#known = { snapshot, reservations };
      this.#account = account;
      this.#service = address.url;
      this.#status = 'online';
      this.#problem = null;
      this.#lastSeen = this.ports.clock.now();
      this.#retryMs = FIRST_RETRY_MS;
      void opened.closed.then(() => this.#lost(opened));
      this.ports.changed();
    } catch (error) {
      await link?.close().catch(() => undefined);
      if (this.#token !== token || this.#stopped) return;
      this.#failed(error);
    }
  }

  #failed(error: unknown): void {
    const refused = isPlugboardError(error) ? error : null;
    if (refused?.code === 'AUTH_FAILED') {
      this.#signedOut(
        new PlugboardError(
          'AUTH_FAILED',
          `The lab ${this.record.name} no longer accepts this computer's session: it expired, was revoked, or its account was disabled.`,
          { said: refused.message },
          { action: 'Sign in again.' },
        ).toContractError(),
      );
      return;
    }
    this.#status = 'offline';
    this.#problem = offline(this.record.name, error).toContractError();
    this.ports.log(`The lab ${this.record.name} cannot be reached`, error);
    this.#schedule();
    this.ports.changed();
  }

  /** The link closed under us: offline (what is shown is last known) until it connects again. */
  #lost(link: CoreLink): void {
    if (this.#link !== link) return;
    this.#link = null;
    if (this.#stopped || this.#token === null) return;
    this.#status = 'offline';
    this.#problem = offline(
      this.record.name,
      new Error(`the service at ${this.#service ?? 'its address'} closed the link`),
    ).toContractError();
    // A link the service ended with the session (revoked, signed out elsewhere) is refused at the
    // next attempt, which makes the lab signed out.
    this.#schedule();
    this.ports.changed();
  }

  #schedule(): void {
    if (this.#timer || this.#stopped || this.#token === null) return;
    const wait = this.#retryMs;
    this.#retryMs = Math.min(this.#retryMs * 2, LAST_RETRY_MS);
    this.#timer = this.ports.clock.setTimeout(() => {
      this.#timer = null;
      void this.connect();
    }, wait);
  }

  #clearTimer(): void {
    if (this.#timer) this.ports.clock.clearTimeout(this.#timer);
    this.#timer = null;
  }

  /** The service refused the session: it is of no use any more, here or in the keychain. */
  #signedOut(problem: ContractError | null): void {
    const token = this.#token;
    this.#reset();
    this.#problem = problem;
    if (token !== null)
      void forgetSession(this.ports.secrets, this.addresses, token).catch((error: unknown) =>
        this.ports.log('A refused session could not be deleted from the keychain', error),
      );
    this.ports.changed();
  }

  #reset(): void {
    this.#token = null;
    this.#clearTimer();
    const link = this.#link;
    this.#link = null;
    void link?.close().catch(() => undefined);
    this.#known = null;
    this.#account = null;
    this.#service = null;
    this.#status = 'signed-out';
  }

  /** End the session: told to the service when it answers, deleted from the keychain in any case. */
  async signOut(): Promise<void> {
    const token = this.#token ?? (await keptSession(this.ports.secrets, this.addresses))?.token ?? null;
    this.#reset();
    this.#problem = null;
    if (token !== null) {
      try {
        await postToLab(this.addresses, '/api/v1/sign-out', { token });
      } catch (error) {
        this.#problem = new PlugboardError(
          isPlugboardError(error) ? error.code : 'UNREACHABLE',
          `Signed out on this computer, but the lab ${this.record.name} could not be told (${(error as Error).message}), so it accepts the session until it expires.`,
          undefined,
          { action: "To end it there now, ask the lab's administrator to revoke the account's sessions." },
        ).toContractError();
      }
      await forgetSession(this.ports.secrets, this.addresses, token);
    }
    this.ports.changed();
  }

  /** One contract call on the lab's Core as `actor` (the link acts as the account whatever its who). */
  async call(name: string, input: unknown, actor: LinkActor): Promise<unknown> {
    if (this.#token === null)
      throw new PlugboardError(
        'AUTH_FAILED',
        `You are not signed in to the lab ${this.record.name}.`,
        undefined,
        {
          action: 'Sign in to it first.',
        },
      );
    if (!(callNames as readonly string[]).includes(name))
      throw new PlugboardError('BAD_INPUT', `The lab has no call named ${JSON.stringify(name)}.`);
    const link = this.#link;
    if (link === null || this.#status !== 'online') {
      if (name === 'app/snapshot' && this.#known) return this.#known.snapshot;
      throw unreachable(this.record.name);
    }
    try {
      return await this.#send(link, name as CallName, input, actor);
    } catch (error) {
      if (!isPlugboardError(error) || error.code !== 'STANDBY') throw error;
      // A standby did nothing: find the leader and send it there once.
      this.#link = null;
      await link.close().catch(() => undefined);
      await this.connect();
      const leader = this.#link as CoreLink | null;
      if (leader === null || leader === link) throw error;
      return this.#send(leader, name as CallName, input, actor);
    }
  }

  async #send(link: CoreLink, name: CallName, input: unknown, actor: LinkActor): Promise<unknown> {
    const handler = link.handlersAs(actor)[name] as (input: unknown) => Promise<unknown>;
    const value = await handler(input ?? {});
    this.#lastSeen = this.ports.clock.now();
    return value;
  }

  /** Stop connecting and close the link (the desk stops, or the lab is removed); the session stays. */
  async stop(): Promise<void> {
    this.#stopped = true;
    this.#clearTimer();
    const link = this.#link;
    this.#link = null;
    await link?.close().catch(() => undefined);
  }
}
