/*
 * What a person gives for a controller (a new one, or a change to a saved one) and the saved record it
 * makes: every field checked and cleaned, its name and alias unique among the saved controllers.
 */
import type { AuthKind, ControllerSummary } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import { normaliseControllerUrl, normaliseFingerprint } from '../../shared/controller-address';
import { pickDefaultColour } from './colour-palette';
import {
  checkNameNotAlias,
  checkSecret,
  checkUniqueAlias,
  cleanAlias,
  cleanAuth,
  cleanColour,
  cleanMqttRoot,
  cleanName,
  newId,
} from './registry-input';
import { cleanTags, sameName } from './registry-records';

/** What the person chose when adding a controller (the secret travels separately). */
export interface ControllerInput {
  name: string;
  /** Any address form; saved as `http[s]://host[:port]`. */
  url: string;
  auth: AuthKind;
  /** User name for digest/basic; ignored for tokens. */
  user?: string;
  /** Pinned certificate fingerprint (HTTPS), or null/absent. */
  fingerprint?: string | null;
  /** `#rrggbb`; a distinct palette colour when absent. */
  colour?: string;
  demo?: boolean;
  /** pdudaemon's hostname besides the name; null or absent: none (update: null removes it). */
  alias?: string | null;
  tags?: readonly string[];
  /** The topic root its unit publishes under (MQTT); null or absent: none (update: null removes it). */
  mqttTopic?: string | null;
}

/** Fields `update` may change; absent fields stay as they are. */
export type ControllerPatch = Partial<Omit<ControllerInput, 'demo'>>;

/** The record a new controller is saved as, after `all`; refused (BAD_INPUT) as the first check fails. */
export function newRecord(
  all: readonly ControllerSummary[],
  input: ControllerInput,
  secret: string | null,
): ControllerSummary {
  const name = cleanName(input.name, 'controller');
  checkUniqueName(all, name, null);
  const alias = input.alias ? cleanAlias(input.alias) : null;
  if (alias) checkUniqueAlias(all, alias, null);
  const { auth, user } = cleanAuth(input.auth, input.user);
  checkSecret(secret);
  return {
    id: newId('c', (id) => all.some((c) => c.id === id)),
    name,
    url: normaliseControllerUrl(input.url),
    auth,
    user,
    hasSecret: secret !== null,
    fingerprint: input.fingerprint ? normaliseFingerprint(input.fingerprint) : null,
    colour:
      input.colour === undefined ? pickDefaultColour(all.map((c) => c.colour)) : cleanColour(input.colour),
    order: all.length === 0 ? 0 : Math.max(...all.map((c) => c.order)) + 1,
    demo: input.demo === true,
    ...(alias ? { alias } : {}),
    ...(input.tags?.length ? { tags: cleanTags(input.tags) } : {}),
    mqttTopic: cleanMqttRoot(input.mqttTopic ?? null),
  };
}

/** `current` with `patch` applied (absent fields stay as they are), checked against `all`. */
export function patchedRecord(
  all: readonly ControllerSummary[],
  current: ControllerSummary,
  patch: ControllerPatch,
): ControllerSummary {
  const id = current.id;
  const next: ControllerSummary = { ...current };
  if (patch.name !== undefined) {
    next.name = cleanName(patch.name, 'controller');
    checkUniqueName(all, next.name, id);
  }
  if (patch.url !== undefined) next.url = normaliseControllerUrl(patch.url);
  if (patch.auth !== undefined || patch.user !== undefined) {
    Object.assign(next, cleanAuth(patch.auth ?? current.auth, patch.user ?? (current.user || undefined)));
  }
  if (patch.fingerprint !== undefined)
    next.fingerprint = patch.fingerprint ? normaliseFingerprint(patch.fingerprint) : null;
  if (patch.colour !== undefined) next.colour = cleanColour(patch.colour);
  if (patch.alias === null) delete next.alias;
  else if (patch.alias !== undefined) next.alias = cleanAlias(patch.alias);
  if (next.alias) checkUniqueAlias(all, next.alias, id);
  if (patch.tags !== undefined) {
    const tags = cleanTags(patch.tags);
    if (tags.length) next.tags = tags;
    else delete next.tags;
  }
  if (patch.mqttTopic !== undefined) next.mqttTopic = cleanMqttRoot(patch.mqttTopic);
  return next;
}

function checkUniqueName(all: readonly ControllerSummary[], name: string, selfId: string | null): void {
  const clash = all.find((c) => c.id !== selfId && sameName(c.name, name));
  if (clash)
    throw new PlugboardError(
      'BAD_INPUT',
      `A controller named "${clash.name}" is already saved: choose another name.`,
    );
  checkNameNotAlias(all, name, selfId);
}
