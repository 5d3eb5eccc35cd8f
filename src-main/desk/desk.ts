/**
 * A desk: this computer's Core ("This computer") and the labs it attaches to. It answers the `labs/*`
 * calls itself (the Core alone refuses them) and passes every other call to the Core; its events are
 * the Core's plus `labs/changed` (the labs' summaries) and `labs/event` (each lab Core's own events).
 * The Electron shell and the web shell (`plugboard web`) serve a desk instead of the bare Core.
 */
import { randomBytes } from 'node:crypto';
import type { EventName, EventPayload, EventSink, Handlers, LabHandlers } from '../../src-preload/contract';
import type { ActivityDoor, Caller, ConfirmRequest, LabSummary } from '../../src-preload/model';
import { systemClock, type Clock, type Core, type KeyValueStore } from '../core/index';
import type { LinkActor } from '../link';
import type { SessionKeychain } from '../link/service-session';
import { PlugboardError } from '../shared/errors';
import type { Logger } from '../shared/logging';
import { deskLabHandlers } from './desk-handlers';
import type { ProviderSignIn } from './desk-labs';
import type { LastKnown } from './last-known';
import { LabConnection } from './lab-connection';
import { readLabs, writeLabs, type LabRecord } from './lab-records';

/** What a desk needs of the Core it wraps (its own, or another Plugboard's through the socket). */
export type DeskBase = Pick<Core, 'handlersAs' | 'subscribe'> &
  Partial<Pick<Core, 'handlers' | 'setVisible' | 'requestConfirmation' | 'dispose'>>;

export interface DeskOptions {
  core: DeskBase;
  /** The desk's own config.json (the labs are kept under `labs`). */
  store: KeyValueStore;
  /** The OS keychain: the labs' sessions (never in the store). */
  secrets: SessionKeychain;
  log: Logger;
  clock?: Clock;
  signInWithProvider?: ProviderSignIn;
  /** Opens the provider's page in the system browser (the Electron shell: shell.openExternal). */
  openBrowser?: (url: string) => Promise<void>;
  /** Who this desk's calls name (the OS user); a lab acts as its account whatever this says. */
  user: string;
}

export interface Desk {
  handlers: Handlers;
  handlersAs(caller: Caller | ActivityDoor): Handlers;
  subscribe(sink: EventSink): () => void;
  setVisible(visible: boolean): void;
  requestConfirmation(request: ConfirmRequest): void;
  /** Resolves once the kept labs have tried their kept sessions. */
  ready: Promise<void>;
  labs(): LabSummary[];
  /** A lab's summary and what was last known of it (the tray's lab favourites); null: no such lab. */
  lab(id: string): { summary: LabSummary; known: LastKnown | null } | null;
  dispose(): Promise<void>;
}

export function createDesk(options: DeskOptions): Desk {
  const clock = options.clock ?? systemClock;
  const sinks = new Set<EventSink>();
  const emit = <K extends EventName>(name: K, payload: EventPayload<K>): void => {
    for (const sink of sinks) sink(name, payload);
  };
  const connections = new Map<string, LabConnection>();
  const summaries = (): LabSummary[] => [...connections.values()].map((c) => c.summary());
  const ports = {
    secrets: options.secrets,
    clock,
    log: options.log,
    changed: () => emit('labs/changed', summaries()),
    event: (lab: string, name: string, payload: unknown) => emit('labs/event', { lab, name, payload }),
  };
  for (const record of readLabs(options.store)) connections.set(record.id, new LabConnection(record, ports));
  const ready = Promise.all([...connections.values()].map((c) => c.resume())).then(() => undefined);

  const save = (): void =>
    writeLabs(
      options.store,
      [...connections.values()].map((c) => c.record),
    );
  const find = (id: string): LabConnection => {
    const found = connections.get(id);
    if (found) return found;
    throw new PlugboardError('NOT_FOUND', `This computer attaches to no lab ${id}.`, undefined, {
      action: 'Pick a lab from the list (labs/list), or connect to it first.',
    });
  };

  const labs = {
    summaries,
    find,
    add(record: Omit<LabRecord, 'id' | 'order'>): LabConnection {
      let id: string;
      do id = `lab-${randomBytes(4).toString('hex')}`;
      while (connections.has(id));
      const connection = new LabConnection({ ...record, id, order: connections.size }, ports);
      connections.set(id, connection);
      save();
      return connection;
    },
    async remove(id: string): Promise<void> {
      const connection = find(id);
      await connection.signOut();
      await connection.stop();
      connections.delete(id);
      save();
      ports.changed();
    },
    all: () => [...connections.values()],
    signInWithProvider: options.signInWithProvider,
    openBrowser: options.openBrowser,
    log: options.log,
    secrets: options.secrets,
    changed: ports.changed,
  };

  const byCaller = new Map<string, Handlers>();
  const handlersAs = (caller: Caller | ActivityDoor): Handlers => {
    const key = typeof caller === 'string' ? caller : `${caller.door}\u0000${caller.who}\u0000${caller.role}`;
    let handlers = byCaller.get(key);
    if (!handlers) {
      const own = options.core.handlersAs(caller);
      const lab: LabHandlers = deskLabHandlers(labs, actorOf(caller, options.user), own);
      handlers = { ...own, ...lab };
      byCaller.set(key, handlers);
    }
    return handlers;
  };
  const windowHandlers = options.core.handlers
    ? {
        ...options.core.handlers,
        ...deskLabHandlers(labs, actorOf('window', options.user), options.core.handlers),
      }
    : handlersAs('window');

  return {
    handlers: windowHandlers,
    handlersAs,
    subscribe(sink) {
      sinks.add(sink);
      const stop = options.core.subscribe(sink);
      return () => {
        sinks.delete(sink);
        stop();
      };
    },
    setVisible: (visible) => options.core.setVisible?.(visible),
    requestConfirmation: (request) => options.core.requestConfirmation?.(request),
    ready,
    labs: summaries,
    lab(id) {
      const connection = connections.get(id);
      return connection ? { summary: connection.summary(), known: connection.lastKnown() } : null;
    },
    async dispose() {
      await Promise.all([...connections.values()].map((c) => c.stop()));
      await options.core.dispose?.();
    },
  };
}

/** The door a lab sees: the tray's calls as the tray, the CLI's as the CLI, every window as a window. */
function actorOf(caller: Caller | ActivityDoor, user: string): LinkActor {
  const door = typeof caller === 'string' ? caller : caller.door;
  const who = typeof caller === 'string' ? user : caller.who;
  return { door: door === 'tray' ? 'tray' : door === 'cli' ? 'cli' : 'window', who };
}
