import { randomBytes } from 'node:crypto';
import {
  cleanMqttTopic,
  mqttTopicProblem,
  type AuthKind,
  type ControllerSummary,
} from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import { neutralise, unsafeCharacterIn } from '../../shared/text';
import { MAX_NAME_LENGTH, sameName } from './registry-records';

/** Checks on what a person typed for a controller, and the registry's errors: each says what is wrong and what to do. */

export function newId(prefix: string, taken: (id: string) => boolean): string {
  for (;;) {
    const id = `${prefix}${randomBytes(4).toString('hex')}`;
    if (!taken(id)) return id;
  }
}

/**
 * Refuse a name, alias or tag holding a control or text-direction character: it is shown everywhere
 * (the CLI, logs, pdudaemon answers, the window) and matched by what people type, so it is refused, not
 * silently changed.
 */
export function checkPrintable(text: string, what: string): void {
  const unsafe = unsafeCharacterIn(text);
  if (unsafe)
    throw new PlugboardError(
      'BAD_INPUT',
      `The ${what} contains ${unsafe}: type it without control characters or text-direction marks.`,
    );
}

export function cleanName(name: string, what: string): string {
  const trimmed = typeof name === 'string' ? name.trim() : '';
  if (!trimmed) throw new PlugboardError('BAD_INPUT', `The ${what} name is empty: give it a name.`);
  if (trimmed.length > MAX_NAME_LENGTH)
    throw new PlugboardError('BAD_INPUT', `The ${what} name is longer than ${MAX_NAME_LENGTH} characters.`);
  checkPrintable(trimmed, `${what} name`);
  return trimmed;
}

/** A controller's alias (pdudaemon's hostname): one word of at most 64 characters. */
export function cleanAlias(alias: string): string {
  const trimmed = typeof alias === 'string' ? alias.trim() : '';
  if (!trimmed || trimmed.length > MAX_NAME_LENGTH || /\s/.test(trimmed))
    throw new PlugboardError(
      'BAD_INPUT',
      `The alias "${neutralise(String(alias), 40)}" must be one word of 1–${MAX_NAME_LENGTH} characters without spaces (pdudaemon clients split on spaces).`,
    );
  checkPrintable(trimmed, 'alias');
  return trimmed;
}

/** The topic root a unit publishes under (MQTT), trimmed; null or empty: none. */
export function cleanMqttRoot(topic: string | null): string | null {
  if (topic === null) return null;
  const cleaned = cleanMqttTopic(typeof topic === 'string' ? topic : '');
  if (cleaned === '') return null;
  const problem = mqttTopicProblem(cleaned);
  if (problem)
    throw new PlugboardError(
      'BAD_INPUT',
      `The MQTT topic "${neutralise(String(topic), 60)}" ${problem}: give the topic root set on the unit's External APIs page, such as dli/rack7/pdu1.`,
    );
  checkPrintable(cleaned, 'MQTT topic');
  return cleaned;
}

/** Aliases are unique among every other controller's names and aliases (case-insensitive). */
export function checkUniqueAlias(
  all: readonly ControllerSummary[],
  alias: string,
  selfId: string | null,
): void {
  const clash = all.find(
    (c) =>
      c.id !== selfId && (sameName(c.name, alias) || (c.alias !== undefined && sameName(c.alias, alias))),
  );
  if (clash)
    throw new PlugboardError(
      'BAD_INPUT',
      `The alias "${alias}" is already ${sameName(clash.name, alias) ? 'the name' : 'the alias'} of "${clash.name}": choose another alias.`,
    );
}

/** A name may not be another controller's alias (pdudaemon's hostname would name two controllers). */
export function checkNameNotAlias(
  all: readonly ControllerSummary[],
  name: string,
  selfId: string | null,
): void {
  const aliased = all.find((c) => c.id !== selfId && c.alias !== undefined && sameName(c.alias, name));
  if (aliased)
    throw new PlugboardError(
      'BAD_INPUT',
      `"${aliased.alias}" is the alias of "${aliased.name}": choose another name.`,
    );
}

export function cleanColour(colour: string): string {
  if (!/^#[0-9a-fA-F]{6}$/.test(colour))
    throw new PlugboardError(
      'BAD_INPUT',
      `The colour "${neutralise(String(colour), 20)}" must look like #3b82f6.`,
    );
  return colour.toLowerCase();
}

export function cleanAuth(auth: AuthKind, user: string | undefined): { auth: AuthKind; user: string } {
  if (auth !== 'digest' && auth !== 'basic' && auth !== 'token') {
    throw new PlugboardError(
      'BAD_INPUT',
      `The login method must be digest, basic or token, not "${neutralise(String(auth), 20)}".`,
    );
  }
  if (auth === 'token') return { auth, user: '' };
  const name = (user ?? '').trim();
  if (!name)
    throw new PlugboardError(
      'BAD_INPUT',
      `A ${auth} login needs a user name (the factory default is admin).`,
    );
  if (name.length > 64 || /[\s:]/.test(name))
    throw new PlugboardError(
      'BAD_INPUT',
      'The user name may not contain spaces or colons and is at most 64 characters.',
    );
  return { auth, user: name };
}

export function checkSecret(secret: string | null | undefined): void {
  if (secret === null || secret === undefined) return;
  if (typeof secret !== 'string' || secret.length === 0)
    throw new PlugboardError('BAD_INPUT', 'The password or token is empty: type it, or leave it out.');
  if (secret.length > 256)
    throw new PlugboardError('BAD_INPUT', 'The password or token is longer than 256 characters.');
}

export function controllerNotFound(id: string): PlugboardError {
  return new PlugboardError(
    'NOT_FOUND',
    `No saved controller has the id ${JSON.stringify(id).slice(0, 80)}; it may have been removed.`,
  );
}

export function groupNotFound(id: string): PlugboardError {
  return new PlugboardError(
    'NOT_FOUND',
    `No group has the id ${JSON.stringify(id).slice(0, 80)}; it may have been removed.`,
  );
}
