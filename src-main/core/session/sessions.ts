import type { ControllerState, ControllerSummary, MeterReading, Settings } from '../../../src-preload/model';
import type { ControllerDescription } from '../../dli/types';
import type { ActivityLog } from '../activity/activity-log';
import type { Clock } from '../kernel/clock';
import type { Logger } from '../../shared/logging';
import { capitalise } from '../../../src-preload/words';
import type { EventHub } from '../kernel/event-hub';
import type { Notice, NotificationDecider } from './notifications';
import type { PollTiming } from './poll-policy';
import { controllerNotFound } from '../saved/registry-input';
import type { PlugboardError } from '../../shared/errors';
import { ControllerSession, type SessionHooks } from './session';
import { initialState } from './session-state';

export interface SessionManagerOptions {
  clock: Clock;
  timing: PollTiming;
  log: Logger;
  events: EventHub;
  activity: ActivityLog;
  notices: NotificationDecider;
  notify: (notice: Notice) => void;
  settings(): Settings;
  visible(): boolean;
  secret(summary: ControllerSummary): Promise<string | null>;
  requestTimeoutMs?: number;
  /** After each meter read: carry saved meter limits over to changed meter ids (meter-ids.ts). */
  carryMeterLimits?: (
    summary: ControllerSummary,
    readings: readonly MeterReading[],
    historyMoves: ReadonlyMap<string, string>,
  ) => void;
  /** The reservations check every outlet action makes before its request is queued. */
  mayAct?: SessionHooks['mayAct'];
  /**
   * Sessions start only for the controllers a call addresses (`open`), not for every saved one: a
   * one-shot Core (a CLI command in a lab of 200 controllers) polls only what it touches.
   */
  lazy?: boolean;
  /** A saved controller by id (lazy sessions start from it). */
  summaryOf?: (id: string) => ControllerSummary | null;
  /** The fence every session's client asks before a request that changes its unit (the leadership). */
  beforeWrite?: () => void;
}

/** The live sessions, one per saved controller, and what their findings set off (events, notices). */
export class SessionManager {
  readonly #options: SessionManagerOptions;
  readonly #sessions = new Map<string, ControllerSession>();
  /** While this service stands by (another leads the lab): why, and no session runs. */
  #standby: (() => PlugboardError) | null = null;

  constructor(options: SessionManagerOptions) {
    this.#options = options;
  }

  /** The session of a saved controller; NOT_FOUND names what is missing. */
  get(id: string): ControllerSession {
    const session = this.#sessions.get(id);
    if (!session) throw this.#standby?.() ?? controllerNotFound(id);
    return session;
  }

  /** The session of a saved controller when it runs, null otherwise (what was last read, for words). */
  peek(id: string): ControllerSession | null {
    return this.#sessions.get(id) ?? null;
  }

  /** Sessions start only when a call addresses their controller (see SessionManagerOptions.lazy). */
  get lazy(): boolean {
    return this.#options.lazy === true;
  }

  /**
   * The session a call addresses. Lazy: started now if it is not running yet (concurrent calls share
   * it: `start` takes the controller's place at once). NOT_FOUND when no such controller is saved.
   */
  async open(id: string): Promise<ControllerSession> {
    const running = this.#sessions.get(id);
    if (running || !this.lazy) return running ?? this.get(id);
    const summary = this.#options.summaryOf?.(id);
    if (!summary) throw controllerNotFound(id);
    return this.start(summary);
  }

  /**
   * A saved controller changed where or how to log in (or was added by another process): (re)start its
   * session — when lazy, only if it is already running (nothing addressed it otherwise).
   */
  async follow(summary: ControllerSummary): Promise<void> {
    if (this.#standby || (this.lazy && !this.#sessions.has(summary.id))) return;
    await this.start(summary);
  }

  find(id: string): ControllerSession | undefined {
    return this.#sessions.get(id);
  }

  all(): ControllerSession[] {
    return [...this.#sessions.values()];
  }

  /**
   * The live state of a saved controller ("connecting" before its session runs). A standby knows no
   * live state: status "error", no outlets, and the standby's refusal (naming the leader) as its problem.
   */
  stateOf(id: string): ControllerState {
    if (this.#standby)
      return { ...initialState(id), status: 'error', problem: this.#standby().toContractError() };
    return this.#sessions.get(id)?.state ?? initialState(id);
  }

  /** Whether this service stands by: no session runs and none starts. */
  get standing(): boolean {
    return this.#standby !== null;
  }

  /**
   * Another service leads (or none may be known to): stop every session, so nothing polls the units,
   * and start none until `lead`. `why` gives the refusal the states show.
   */
  async standBy(why: () => PlugboardError): Promise<void> {
    this.#standby = why;
    const ids = [...this.#sessions.keys()];
    await this.dispose();
    for (const id of ids) this.#options.events.emit('state/changed', this.stateOf(id));
  }

  /** This service leads again: sessions may start (the Core starts those of the saved controllers). */
  lead(): void {
    this.#standby = null;
  }

  /**
   * Start (or restart) polling a saved controller. The new session takes the controller's place at once,
   * before the previous one has finished stopping: a second restart or a stop meanwhile then replaces or
   * stops this one, instead of finding no session and leaving one polling that nothing can stop.
   */
  async start(summary: ControllerSummary, description?: ControllerDescription): Promise<ControllerSession> {
    const o = this.#options;
    if (this.#standby) throw this.#standby();
    const previous = this.#sessions.get(summary.id);
    const session = new ControllerSession({
      summary,
      // Reconnecting to the same address: the same meters, so their history goes on.
      ...(previous && previous.summary.url === summary.url ? { history: previous.history } : {}),
      // The unit goes on publishing when its session restarts (a new password): still heard.
      ...(previous ? { heard: previous.heard } : {}),
      clock: o.clock,
      timing: o.timing,
      log: o.log,
      settings: o.settings,
      visible: o.visible,
      secret: o.secret,
      ...(o.requestTimeoutMs ? { requestTimeoutMs: o.requestTimeoutMs } : {}),
      ...(o.beforeWrite ? { beforeWrite: o.beforeWrite } : {}),
      hooks: {
        publish: (state) => o.events.emit('state/changed', state),
        record: (entry) => void o.activity.add(entry),
        polled: (state, failures) => {
          const current = this.#sessions.get(state.id);
          if (current) this.#notify(o.notices.status(current.summary.name, state, failures, o.settings()));
        },
        metersRead: (state) => {
          const current = this.#sessions.get(state.id);
          if (!current) return;
          o.carryMeterLimits?.(current.summary, state.meters ?? [], current.meterMoves);
          this.#notify(o.notices.meters(current.summary.name, state, o.settings()));
        },
        ...(o.mayAct ? { mayAct: o.mayAct } : {}),
        observed: (observedOn, change, label) => {
          const what = `${capitalise(label)}: ${change.action}`;
          this.#notify(o.notices.outsideChange(observedOn.name, what, o.settings()));
        },
      },
    });
    this.#sessions.set(summary.id, session);
    if (previous) {
      o.notices.forget(summary.id);
      await previous.stop();
    }
    // Replaced or stopped while the previous session was stopping: this one never polls.
    if (this.#sessions.get(summary.id) === session) session.start(description);
    return session;
  }

  /** A saved controller's name or colour changed: nothing to reconnect. */
  rename(summary: ControllerSummary): void {
    const session = this.#sessions.get(summary.id);
    session?.rename(summary);
  }

  async stop(id: string): Promise<void> {
    const session = this.#sessions.get(id);
    if (!session) return;
    this.#sessions.delete(id);
    this.#options.notices.forget(id);
    await session.stop();
  }

  /** Settings or visibility changed: every poller plans again. */
  replanAll(): void {
    for (const session of this.#sessions.values()) session.replan();
  }

  /** Poll every controller soon (the window just became visible: meters and the slow parts are due). */
  pokeAll(): void {
    for (const session of this.#sessions.values()) session.pollSoon();
  }

  async dispose(): Promise<void> {
    await Promise.all([...this.#sessions.keys()].map((id) => this.stop(id)));
  }

  #notify(notices: Notice[]): void {
    for (const notice of notices) {
      try {
        this.#options.notify(notice);
      } catch (error) {
        this.#options.log('showing a notification failed', error);
      }
    }
  }
}
