/**
 * One link to the lab over several `plugboard serve` addresses (service-list.ts), which follows the
 * leader. The addresses are tried in order: one that does not answer (refused, no route, timed out) is
 * skipped with a note on stderr. Reads are answered by whichever service the link reached (a standby
 * answers them from the lab store). A call refused with STANDBY did nothing, so it is sent once more, to
 * the leader the refusal names when that address is among the given ones; a leader at another address
 * is only reported (its certificate was not pinned, and the person did not name it). Nothing is sent
 * twice: a call goes to another address only after a refusal that says nothing was done, or over a link
 * that had closed before it was sent; a link lost while a call was under way reports its outcome unknown.
 */
import {
  callNames,
  type CallName,
  type EventName,
  type EventPayload,
  type EventSink,
  type Handlers,
} from '../../src-preload/contract';
import { connectRemoteCore, type CoreLink as RemoteLink, type LinkActor } from '../link';
import { didNotAnswer } from '../link/service-post';
import { isPlugboardError, PlugboardError } from '../shared/errors';
import { originOf, type ServiceAddress } from './service-list';

export interface FollowOptions {
  /** The services' bearer token (the same for all: they share the lab's tokens). */
  token: string | undefined;
  /** A note for stderr (an address skipped, a change sent on to the leader). */
  note: (line: string) => void;
}

/** What core-access.ts needs of the link: calls as an actor, events, close. */
export interface ServicesLink {
  handlersAs(actor: LinkActor): Handlers;
  subscribe(sink: EventSink): () => void;
  close(): Promise<void>;
}

interface Open {
  address: ServiceAddress;
  link: RemoteLink;
  closed: boolean;
}

/** Connect to the first of `addresses` that answers; rejects naming each when none does. */
export async function connectServices(
  addresses: readonly ServiceAddress[],
  options: FollowOptions,
): Promise<ServicesLink> {
  const follower = new Follower(addresses, options);
  await follower.start();
  return follower.asLink();
}

class Follower {
  private readonly opened = new Map<ServiceAddress, Open>();
  private readonly sinks = new Set<EventSink>();
  private readonly byActor = new Map<string, Handlers>();
  private current: Open | null = null;

  constructor(
    private readonly addresses: readonly ServiceAddress[],
    private readonly options: FollowOptions,
  ) {}

  async start(): Promise<void> {
    this.current = await this.firstAnswering();
  }

  asLink(): ServicesLink {
    return {
      handlersAs: (actor) => {
        const key = `${actor.door}\u0000${actor.who}`;
        let handlers = this.byActor.get(key);
        if (!handlers) {
          handlers = Object.fromEntries(
            callNames.map((name) => [name, (input: unknown) => this.call(name, input, actor)]),
          ) as unknown as Handlers;
          this.byActor.set(key, handlers);
        }
        return handlers;
      },
      subscribe: (sink) => {
        this.sinks.add(sink);
        return () => this.sinks.delete(sink);
      },
      close: async () => {
        await Promise.all([...this.opened.values()].map((open) => open.link.close()));
      },
    };
  }

  private async call(name: CallName, input: unknown, actor: LinkActor): Promise<unknown> {
    let open = this.current!;
    if (open.closed) {
      // Nothing was sent on it: the next answering service may have this call.
      this.options.note(
        `plugboard: the Plugboard service at ${open.address.url} closed the link; trying again.`,
      );
      open = this.current = await this.firstAnswering();
    }
    try {
      return await send(open, name, input, actor);
    } catch (error) {
      if (!isPlugboardError(error) || error.code !== 'STANDBY') throw error;
      return this.toLeader(open, error, name, input, actor);
    }
  }

  /** A call a standby refused (so nothing was done): once more at the leader, when the person gave its address. */
  private async toLeader(
    standby: Open,
    refusal: PlugboardError,
    name: CallName,
    input: unknown,
    actor: LinkActor,
  ): Promise<unknown> {
    const named = refusal.detail?.leaderAddress;
    const leader = typeof refusal.detail?.leader === 'string' ? refusal.detail.leader : 'the leader';
    if (typeof named === 'string' && named !== '') {
      const target = this.addresses.find((a) => originOf(a.url) === originOf(named));
      if (!target)
        throw new PlugboardError('STANDBY', refusal.message, refusal.detail, {
          action: `${named} is not among the services given with --service (or PLUGBOARD_SERVICE), so nothing was sent there: add it (with --service-fingerprint for its certificate if it has its own) and run the command again.`,
        });
      if (target === standby.address) throw refusal;
      this.options.note(
        `plugboard: the Plugboard service at ${standby.address.url} is a standby; sending to ${leader} at ${target.url}, which leads.`,
      );
      const open = await this.reach(target, standby);
      this.current = open;
      return send(open, name, input, actor);
    }
    // No leader's address (a takeover under way, or a leader that advertises none): each other given
    // service once, in order; a standby's refusal again says nothing was done.
    let last = refusal;
    for (const address of this.addresses) {
      if (address === standby.address) continue;
      let open: Open;
      try {
        open = await this.open(address);
      } catch (error) {
        if (!didNotAnswer(error)) throw error;
        this.options.note(
          `plugboard: no answer from the Plugboard service at ${address.url} (${reason(error)}).`,
        );
        continue;
      }
      try {
        const value = await send(open, name, input, actor);
        this.current = open;
        return value;
      } catch (error) {
        if (!isPlugboardError(error) || error.code !== 'STANDBY') throw error;
        last = error;
      }
    }
    throw last;
  }

  /** The leader a standby named, or an error saying it did not answer and nothing was done. */
  private async reach(target: ServiceAddress, standby: Open): Promise<Open> {
    try {
      return await this.open(target);
    } catch (error) {
      if (!didNotAnswer(error)) throw error;
      throw new PlugboardError(
        'UNREACHABLE',
        `The Plugboard service at ${standby.address.url} is a standby and names ${target.url} as the leader, but that did not answer (${reason(error)}); nothing was done.`,
        undefined,
        {
          cause: error,
          action: 'Try again shortly: a standby takes over within about 10 s of a leader that stopped.',
        },
      );
    }
  }

  /** The first given service that answers; the others are noted, and named in the error when none does. */
  private async firstAnswering(): Promise<Open> {
    const failures: string[] = [];
    for (const [index, address] of this.addresses.entries()) {
      const known = this.opened.get(address);
      if (known && !known.closed) return known;
      try {
        return await this.open(address);
      } catch (error) {
        if (!didNotAnswer(error) || this.addresses.length === 1) throw error;
        failures.push(`${address.url} (${reason(error)})`);
        const next = this.addresses[index + 1];
        if (next)
          this.options.note(
            `plugboard: no answer from the Plugboard service at ${address.url} (${reason(error)}); trying ${next.url}.`,
          );
      }
    }
    throw new PlugboardError(
      'UNREACHABLE',
      `No Plugboard service answered: ${failures.join('; ')}.`,
      undefined,
      {
        action:
          'Check that `plugboard serve` runs at one of these addresses with its api listener, and the addresses and ports, or leave out --service.',
      },
    );
  }

  private async open(address: ServiceAddress): Promise<Open> {
    const known = this.opened.get(address);
    if (known && !known.closed) return known;
    const link = await connectRemoteCore(address.url, {
      token: this.options.token,
      fingerprint: address.fingerprint,
    });
    const open: Open = { address, link, closed: false };
    this.opened.set(address, open);
    void link.closed.then(() => {
      open.closed = true;
    });
    // Events come from the service the calls go to (a standby polls nothing).
    link.subscribe(<K extends EventName>(event: K, payload: EventPayload<K>) => {
      if (this.current !== open) return;
      for (const sink of this.sinks) sink(event, payload);
    });
    return open;
  }
}

function send(open: Open, name: CallName, input: unknown, actor: LinkActor): Promise<unknown> {
  const handler = open.link.handlersAs(actor)[name] as (input: unknown) => Promise<unknown>;
  return handler(input);
}

/** Why an address did not answer, in the words of the network (the cause), else the error's sentence. */
function reason(error: unknown): string {
  const cause = (error as Error).cause;
  if (cause instanceof Error && cause.message) return cause.message;
  return (error as Error).message;
}
