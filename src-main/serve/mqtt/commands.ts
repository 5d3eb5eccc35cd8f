/**
 * A command on `<prefix>/<serial>/outlet/<n>/set`, carried out through the Core as the MQTT door's one
 * client (`core.handlersAs`: its role and scope, reservations, critical outlets, STANDBY and the
 * controller's queue, as every door), and its answer.
 *
 * The payload is a word, then optional `key=value` words:
 *
 *   ON | OFF | CYCLE                 switch the outlet (saved state) or power-cycle it
 *   confirm=<serial>-<n>             a critical outlet goes off or cycles only with its own id here
 *   id=<text>                        echoed in the answer (MQTT 3.1.1 has no correlation data)
 *
 * A critical outlet is never switched off over MQTT by a bare `OFF` (Home Assistant's switch sends one):
 * the confirmation names the very outlet, so a payload copied to another topic confirms nothing.
 */
import type {
  Caller,
  ContractError,
  Handlers,
  OutletActionResult,
  Result,
} from '../../../src-preload/contract';
import { dispatch } from '../../core/index';
import type { Logger } from '../../shared/logging';
import { outletId } from './topics';

export type CommandWord = 'ON' | 'OFF' | 'CYCLE';

export interface Command {
  word: CommandWord;
  confirm: string | null;
  id: string | null;
}

/** What a command's answer says (JSON on the response topic and the result topic). */
export interface CommandAnswer {
  ok: boolean;
  outlet: string;
  command: string | null;
  id?: string;
  /** Set when refused: the Core's code and its sentence. */
  code?: string;
  message?: string;
  /** Sent, but the unit did not confirm it in time: a poll settles it. */
  unconfirmed?: true;
}

/** The payload's command, or a sentence saying what a good one looks like. */
export function parseCommand(payload: string): Command | string {
  const words = payload.trim().split(/\s+/).filter(Boolean);
  const word = words[0]?.toUpperCase();
  if (word !== 'ON' && word !== 'OFF' && word !== 'CYCLE')
    return `"${payload.slice(0, 40)}" is not a command: send ON, OFF or CYCLE (a critical outlet's OFF or CYCLE also confirm=<serial>-<n>).`;
  const command: Command = { word, confirm: null, id: null };
  for (const extra of words.slice(1)) {
    const match = /^(confirm|id)=(.{1,100})$/.exec(extra);
    if (!match) return `"${extra.slice(0, 40)}" after ${word} is neither confirm=<serial>-<n> nor id=<text>.`;
    command[match[1] as 'confirm' | 'id'] = match[2]!;
  }
  return command;
}

/** Whom the door acts as. */
export function mqttCaller(client: Pick<Caller, 'who' | 'role' | 'scope'>): Caller {
  return {
    door: 'mqtt',
    who: client.who,
    role: client.role,
    ...(client.scope ? { scope: client.scope } : {}),
  };
}

export interface CommandTarget {
  controllerId: string;
  serial: string;
  outlet: number;
}

/** Carry out one parsed command through the Core; never throws. */
export async function runCommand(
  handlers: Handlers,
  target: CommandTarget,
  command: Command,
  log: Logger,
): Promise<CommandAnswer> {
  const own = outletId(target.serial, target.outlet);
  const base = { outlet: own, command: command.word, ...(command.id ? { id: command.id } : {}) };
  if (command.confirm !== null && command.confirm !== own)
    return refused(base, {
      code: 'BAD_INPUT',
      message: `confirm=${command.confirm} names another outlet: this is ${own}, so confirm=${own} confirms it.`,
    });
  const confirmCritical = command.confirm === own;
  const { controllerId, outlet } = target;
  const result = (
    command.word === 'CYCLE'
      ? await dispatch(handlers, 'outlets/cycle', { controllerId, outlet, confirmCritical }, log)
      : await dispatch(
          handlers,
          'outlets/set',
          { controllerId, outlets: [outlet], on: command.word === 'ON', confirmCritical },
          log,
        )
  ) as Result<OutletActionResult>;
  if (!result.ok) return refused(base, result.error);
  const failed = result.value.failed[0];
  if (failed) return refused(base, failed.error);
  return { ok: true, ...base, ...(result.value.unconfirmed?.length ? { unconfirmed: true as const } : {}) };
}

/** What to do after a refusal, said for this door. */
const CONFIRM_HERE = (own: string) =>
  `Over MQTT, send it again with confirm=${own} (like "OFF confirm=${own}") to confirm that this critical outlet may go off.`;

/** MQTT names no sender: the door's one identity is what needs the role. */
const GIVE_A_ROLE =
  "Commands over MQTT act as the one client --mqtt-client names: give it the role, like --mqtt-client 'home-assistant[operator]', and let the broker's access list decide who may publish them.";

export function refused(
  base: Omit<CommandAnswer, 'ok'>,
  error: Pick<ContractError, 'code' | 'message' | 'action'>,
): CommandAnswer {
  const action =
    error.code === 'CRITICAL_UNCONFIRMED'
      ? CONFIRM_HERE(base.outlet)
      : error.code === 'FORBIDDEN'
        ? GIVE_A_ROLE
        : error.action;
  // A reservation's sentence ("reserved by <holder> until <time>: <reason>") goes out as the Core said it.
  const message = action && error.code !== 'RESERVED' ? `${error.message} ${action}` : error.message;
  return { ok: false, ...base, code: error.code, message };
}
