/**
 * The client side of the Core's socket (wire.ts): what the desktop app and the CLI use when a
 * `plugboard serve` runs on this machine, instead of a Core of their own. `connectCore` opens the
 * socket; `findRunningCore` says whether a Core answers for a config folder at all.
 */
import { existsSync } from 'node:fs';
import * as v from 'valibot';
import type WebSocket from 'ws';
import {
  callNames,
  type CallName,
  type EventName,
  type EventPayload,
  type EventSink,
  type Handlers,
} from '../../src-preload/contract';
import type { ContractError, ErrorCode } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';
import {
  coreSocketPath,
  LINK_PATH,
  LINK_PROTOCOL,
  linkReply,
  MAX_LINK_MESSAGE,
  SESSION_ENDED_CLOSE,
  type LinkActor,
} from './wire';

export type { LinkActor } from './wire';

/** A running Core in another process, seen through its socket. */
export interface CoreLink {
  /** The contract's calls, made on the Core on behalf of `actor` (one handler set per actor, kept). */
  handlersAs(actor: LinkActor): Handlers;
  /** The Core's events, as its own `subscribe` gives them; returns the unsubscribe function. */
  subscribe(sink: EventSink): () => void;
  /** Resolves once the link is closed, by `close()` or because the Core went away. */
  closed: Promise<void>;
  close(): Promise<void>;
}

export interface ConnectOptions {
  /** How long the opening handshake may take before the Core counts as not answering (default 5 s). */
  handshakeMs?: number;
}

/** What a call that was under way learns when the link drops: its outcome is unknown, never a failure. */
const LOST: ContractError = {
  code: 'UNREACHABLE',
  message: 'The Plugboard service stopped before it answered, so whether this took effect is not known.',
  action: 'Check the state once the service runs again (systemctl status plugboard).',
};

/** What a call made after the service ended the link's session learns: nothing was sent. */
const ENDED: ContractError = {
  code: 'AUTH_FAILED',
  message: 'The session ended (signed out, revoked, expired, or its account disabled); nothing was done.',
  action: 'Sign in again and use the new token.',
};

/** Open the socket at `socketPath` (see coreSocketPath). Rejects when nothing answers there. */
export async function connectCore(socketPath: string, options: ConnectOptions = {}): Promise<CoreLink> {
  // Loaded on use: a CLI command that finds no service never loads the WebSocket client.
  const { default: WebSocketClient } = await import('ws');
  const socket = new WebSocketClient(`ws+unix:${socketPath}:${LINK_PATH}`, LINK_PROTOCOL, {
    maxPayload: MAX_LINK_MESSAGE,
    handshakeTimeout: options.handshakeMs ?? 5_000,
  });
  return new Promise((resolve, reject) => {
    socket.once('error', reject);
    socket.once('open', () => {
      socket.off('error', reject);
      resolve(linkOver(socket));
    });
  });
}

/**
 * The Core running for `configDir`, or null when none runs (no socket, or a socket nobody listens on:
 * a service that stopped without cleaning up). A socket that accepts but never completes its handshake
 * is an error, not null: a Core holds the folder, and starting a second one would break its rules.
 */
export async function findRunningCore(
  configDir: string,
  options: ConnectOptions = {},
): Promise<CoreLink | null> {
  if (process.platform !== 'win32' && !existsSync(coreSocketPath(configDir))) return null;
  try {
    return await connectCore(coreSocketPath(configDir), options);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ECONNREFUSED') return null;
    throw new PlugboardError(
      'UNREACHABLE',
      `A Plugboard service holds ${coreSocketPath(configDir)} but did not answer (${(error as Error).message}).`,
      undefined,
      { cause: error, action: 'Check it with `systemctl status plugboard`, or stop it, then try again.' },
    );
  }
}

/** The link protocol over an open WebSocket (the Core socket, or a remote service: remote.ts). */
export function linkOver(socket: WebSocket): CoreLink {
  let nextId = 1;
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  const sinks = new Set<EventSink>();
  const byActor = new Map<string, Handlers>();
  let endedSession = false;
  const closed = new Promise<void>((resolve) =>
    socket.once('close', (code: number) => {
      endedSession = code === SESSION_ENDED_CLOSE;
      resolve();
    }),
  );
  socket.on('error', () => undefined); // a broken link ends in 'close', which settles every call

  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    let parsed: v.SafeParseResult<typeof linkReply>;
    try {
      parsed = v.safeParse(linkReply, JSON.parse(data.toString()));
    } catch {
      return;
    }
    if (!parsed.success) return;
    const reply = parsed.output;
    if (reply.type === 'event') {
      for (const sink of sinks) sink(reply.name as EventName, reply.payload as EventPayload<EventName>);
      return;
    }
    const call = waiting.get(reply.id);
    if (!call) return;
    waiting.delete(reply.id);
    if (reply.result.ok) call.resolve(reply.result.value);
    else call.reject(toError(reply.result.error as ContractError));
  });
  void closed.then(() => {
    // The service closes a link whose session ended only with none of its calls under way there.
    for (const call of waiting.values()) call.reject(toError(endedSession ? ENDED : LOST));
    waiting.clear();
  });

  const send = (name: CallName, input: unknown, actor: LinkActor): Promise<unknown> => {
    if (socket.readyState !== socket.OPEN) return Promise.reject(toError(endedSession ? ENDED : LOST));
    const id = nextId++;
    return new Promise((resolve, reject) => {
      waiting.set(id, { resolve, reject });
      socket.send(JSON.stringify({ type: 'call', id, name, input: input ?? {}, actor }));
    });
  };

  return {
    handlersAs(actor) {
      const key = `${actor.door}\u0000${actor.who}`;
      let handlers = byActor.get(key);
      if (!handlers) {
        const frozen = Object.freeze({ door: actor.door, who: actor.who });
        handlers = Object.fromEntries(
          callNames.map((name) => [name, (input: unknown) => send(name, input, frozen)]),
        ) as unknown as Handlers;
        byActor.set(key, handlers);
      }
      return handlers;
    },
    subscribe(sink) {
      sinks.add(sink);
      return () => sinks.delete(sink);
    },
    closed,
    async close() {
      if (socket.readyState !== socket.CLOSED) socket.close(1000);
      await closed;
    },
  };
}

function toError(error: ContractError): PlugboardError {
  return new PlugboardError(error.code as ErrorCode, error.message, error.detail, {
    ...(error.action ? { action: error.action } : {}),
  });
}
