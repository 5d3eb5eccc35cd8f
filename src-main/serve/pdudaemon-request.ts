/**
 * pdudaemon's two request forms, read into one shape. Both come from pdudaemon's own
 * listener.py: the TCP line `<pdu> <port> <command> [delay]` (split on single spaces, 3 or 4 fields)
 * and the HTTP `GET /power/control/<command>?hostname=<pdu>&port=<port>[&delay=<s>]`. Plugboard adds
 * `get-status` (pdudaemon PR 219, which names it `get-port-state`: both are accepted) and `wait=1`.
 */
import { MAX_CYCLE_WAIT_SECONDS } from '../../src-preload/contract';

export type PduCommand = 'on' | 'off' | 'reboot' | 'get-status';

export interface PduRequest {
  command: PduCommand;
  /** A saved controller's name or alias. */
  hostname: string;
  /** An outlet number (1-based, as on the unit's label) or an outlet's name. */
  port: string;
  /** Seconds: for reboot the off-time (pdudaemon's default 5), for on/off a wait before switching. */
  delay: number;
  /** Answer only once the controller confirms the physical state (Plugboard's addition). */
  wait: boolean;
}

/** pdudaemon's reboot off-time when the request gives none ("a default since the start"). */
export const DEFAULT_REBOOT_DELAY_S = 5;

/** A request Plugboard refuses, with the HTTP status it answers and one sentence. */
export class PduRefusal extends Error {
  readonly status: number;
  constructor(status: number, message: string) {
    super(message);
    this.name = 'PduRefusal';
    this.status = status;
  }
}

const COMMANDS: Record<string, PduCommand> = {
  on: 'on',
  off: 'off',
  reboot: 'reboot',
  'get-status': 'get-status',
  'get-port-state': 'get-status',
};

const quote = (text: string) => JSON.stringify(text.slice(0, 40));

function commandOf(word: string): PduCommand {
  const command = COMMANDS[word];
  if (!command)
    throw new PduRefusal(404, `Unknown command ${quote(word)}: use on, off, reboot or get-status.`);
  return command;
}

function delayOf(text: string | null, command: PduCommand): number {
  if (text === null || text === '') return command === 'reboot' ? DEFAULT_REBOOT_DELAY_S : 0;
  if (!/^\d{1,6}$/.test(text.trim()) || Number(text) > MAX_CYCLE_WAIT_SECONDS)
    throw new PduRefusal(
      400,
      `The delay ${quote(text)} must be whole seconds from 0 to ${MAX_CYCLE_WAIT_SECONDS}.`,
    );
  return Number(text);
}

function required(value: string | null, what: string): string {
  const clean = value?.trim() ?? '';
  if (!clean)
    throw new PduRefusal(400, `The request has no ${what}: give ${what}=… as pdudaemon's clients do.`);
  return clean;
}

/** One TCP request (pdudaemon reads a single chunk, strips it and splits on spaces). */
export function parseTcpLine(data: string): PduRequest {
  const fields = data.trim().split(' ');
  if (fields.length < 3 || fields.length > 4)
    throw new PduRefusal(
      400,
      `Expected "<pdu> <port> <command> [delay]" (3 or 4 words), got ${fields.length} word${fields.length === 1 ? '' : 's'}.`,
    );
  const [hostname, port, word, delay] = fields as [string, string, string, string | undefined];
  const command = commandOf(word);
  return { command, hostname, port, delay: delayOf(delay ?? null, command), wait: false };
}

const WAIT_WORDS = new Set(['1', 'true', 'yes']);

function targetUrl(target: string): URL {
  try {
    return new URL(target, 'http://pdudaemon.invalid');
  } catch {
    throw new PduRefusal(
      400,
      `The request target ${quote(target)} is not a path: send /power/control/<command>?….`,
    );
  }
}

function decoded(part: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new PduRefusal(
      400,
      `The path has a malformed percent-encoding in ${quote(part)}: write a "%" as %25, and other characters as %XX with two hexadecimal digits.`,
    );
  }
}

/** One HTTP request's target (`/power/control/<command>?…`). */
export function parseHttpTarget(target: string): PduRequest {
  const url = targetUrl(target);
  const parts = url.pathname.replace(/^\/+/, '').split('/');
  if (parts.length !== 3 || parts[0] !== 'power' || parts[1] !== 'control')
    throw new PduRefusal(
      404,
      `Unknown path ${quote(url.pathname)}: pdudaemon requests are /power/control/<on|off|reboot|get-status>.`,
    );
  const command = commandOf(decoded(parts[2]!));
  const query = url.searchParams;
  if (query.get('alias') !== null && !query.get('hostname'))
    throw new PduRefusal(
      400,
      'Plugboard has no pdudaemon port aliases: give hostname=<controller name or alias>&port=<outlet>.',
    );
  const wait = query.get('wait');
  return {
    command,
    hostname: required(query.get('hostname'), 'hostname'),
    port: required(query.get('port'), 'port'),
    delay: delayOf(query.get('delay'), command),
    wait: wait !== null && WAIT_WORDS.has(wait.toLowerCase()),
  };
}
