/**
 * What the service hears on the broker: commands on its own `…/set` topics, and the messages units
 * publish under their own topic roots (hints for the Core: read that controller now).
 *
 * A command is acted on at most once: never when it arrives retained (a stale command left on the
 * broker, delivered again at every subscription), and a command whose correlation data (MQTT 5) or
 * `id=` (3.1.1) was seen before gets the first one's answer again without a second action.
 */
import type { IPublishPacket } from 'mqtt';
import type { Handlers } from '../../../src-preload/contract';
import type { Core } from '../../core/index';
import type { Logger } from '../../shared/logging';
import { parseCommand, refused, runCommand, type CommandAnswer } from './commands';
import { outletId, parseCommandTopic } from './topics';

/** How many recent commands are remembered to answer a repeat without acting again. */
const REMEMBERED = 1000;

/** The Core's hints about a unit's own MQTT messages: read that controller now; warn of its own `/set`. */
export type UnitHints = Pick<Core, 'unitSaid' | 'unitSetSeen'>;

export interface InboundOptions {
  prefix: string;
  handlers: () => Handlers;
  hints: UnitHints;
  log: Logger;
  /** The saved controller with this serial (as a topic level), or null. */
  controllerOf(serialLevel: string): { controllerId: string; serial: string } | null;
  /** The controller whose own topic root `topic` is under, or null. */
  unitOf(topic: string): { controllerId: string; root: string } | null;
  /** Send an answer: on the result topic, and on the response topic with its correlation data. */
  answer(topic: string, answer: CommandAnswer, packet: IPublishPacket): void;
}

export class Inbound {
  readonly #answers = new Map<string, Promise<CommandAnswer>>();
  readonly #retainedSaid = new Set<string>();

  constructor(private readonly o: InboundOptions) {}

  /** One message from the broker. */
  heard(topic: string, payload: Buffer, packet: IPublishPacket): void {
    const command = parseCommandTopic(this.o.prefix, topic);
    // An empty message is how a retained command is cleared from the broker: nothing to answer.
    if (command && payload.length === 0) return;
    if (command) {
      void this.#command(topic, command, payload.toString('utf8'), packet);
      return;
    }
    const unit = this.o.unitOf(topic);
    if (!unit) return;
    if (topic.endsWith('/set')) {
      this.o.hints.unitSetSeen(unit.controllerId, topic);
      return;
    }
    const relative = topic.slice(unit.root.length + 1);
    // The unit's default subtree is outlets/0 … outlets/7, counted from 0.
    const match = /^outlets\/(\d{1,3})$/.exec(relative);
    this.o.hints.unitSaid(unit.controllerId, {
      outlet: match ? Number(match[1]) + 1 : null,
      topic,
      payload: payload.toString('utf8').slice(0, 200),
    });
  }

  async #command(
    topic: string,
    where: { serialLevel: string; outlet: number },
    payload: string,
    packet: IPublishPacket,
  ): Promise<void> {
    const target = this.o.controllerOf(where.serialLevel);
    const own = outletId(target?.serial ?? where.serialLevel, where.outlet);
    const parsed = parseCommand(payload);
    const base = {
      outlet: own,
      command: typeof parsed === 'string' ? null : parsed.word,
      ...(typeof parsed !== 'string' && parsed.id ? { id: parsed.id } : {}),
    };
    if (packet.retain) {
      if (!this.#retainedSaid.has(topic)) {
        this.#retainedSaid.add(topic);
        this.o.log(
          `MQTT: a retained command on ${topic} was not acted on (clear it with mosquitto_pub -r -n -t '${topic}').`,
        );
      }
      this.o.answer(
        topic,
        refused(base, {
          code: 'BAD_INPUT',
          message: `A retained command is never acted on (it would act again at every reconnection): publish commands without the retain flag, and clear this one with an empty retained message on ${topic}.`,
        }),
        packet,
      );
      return;
    }
    const key = repeatKey(packet, typeof parsed === 'string' ? null : parsed.id, topic);
    const earlier = key === null ? undefined : this.#answers.get(key);
    if (earlier) {
      this.o.answer(topic, await earlier, packet);
      return;
    }
    const running = (async (): Promise<CommandAnswer> => {
      if (typeof parsed === 'string') return refused(base, { code: 'BAD_INPUT', message: parsed });
      if (!target)
        return refused(base, {
          code: 'NOT_FOUND',
          message: `No controller saved in this lab has the serial ${where.serialLevel}: use a topic the service published under ${this.o.prefix}/.`,
        });
      const answer = await runCommand(
        this.o.handlers(),
        { ...target, outlet: where.outlet },
        parsed,
        this.o.log,
      ).catch((error: unknown) => {
        this.o.log(`MQTT: the command on ${topic} failed`, error);
        return refused(base, {
          code: 'INTERNAL',
          message: 'Plugboard failed to carry out the command: its log says why.',
        });
      });
      return answer;
    })();
    if (key !== null) this.#remember(key, running);
    this.o.answer(topic, await running, packet);
  }

  #remember(key: string, answer: Promise<CommandAnswer>): void {
    this.#answers.set(key, answer);
    if (this.#answers.size > REMEMBERED) this.#answers.delete(this.#answers.keys().next().value!);
  }
}

/** What makes a command the same request again: its correlation data (with its response topic), or its id. */
function repeatKey(packet: IPublishPacket, id: string | null, topic: string): string | null {
  const correlation = packet.properties?.correlationData;
  if (correlation && correlation.length > 0)
    return `c\u0000${topic}\u0000${packet.properties?.responseTopic ?? ''}\u0000${correlation.toString('hex')}`;
  return id ? `i\u0000${topic}\u0000${id}` : null;
}
