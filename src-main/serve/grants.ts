/**
 * What a machine client may do, as written in brackets after its name: a role, then where it applies.
 * Tokens (`ci[operator tags=farm]:<secret>`) and pdudaemon's `--allow` networks
 * (`ci=10.20.0.0/16[operator tags=farm]`) share it:
 *
 *   tags=farm,rack-7               every outlet of the controllers carrying one of these tags
 *   controllers=Bench-A,<id>,…     every outlet of these controllers (id, name or alias)
 *   outlets=Bench-A:3,<id>:4,…     single outlets
 *
 * Without any, the role applies everywhere; with several, their union. Controllers and outlets are
 * named once, at the service's start, against the saved controllers and kept by id: a controller renamed
 * later stays in the scope (a name never silently widens or drops it), and one added later is named in
 * a scope after a restart. Tags are read at each call: a controller tagged later joins.
 */
import {
  ROLES,
  type ControllerSummary,
  type OutletRef,
  type Role,
  type Scope,
} from '../../src-preload/model';
import { scopeWords } from '../core/index';

/** A scope as written, before its controllers are found. */
export interface WrittenScope {
  tags: string[];
  controllers: string[];
  outlets: { controller: string; outlet: number }[];
}

export interface Grant {
  role: Role;
  /** Null: everything. */
  written: WrittenScope | null;
}

const KEYS = ['tags', 'controllers', 'outlets'] as const;

/**
 * The words in the brackets after `name` ("operator tags=farm"), or a sentence saying what is wrong,
 * after `where`; `example` shows a good one.
 */
export function parseGrant(words: string, where: string, name: string, example: string): Grant | string {
  const [role, ...rest] = words.trim().split(/\s+/);
  if (!role || !ROLES.includes(role as Role))
    return `${where}: the brackets after "${name}" start with its role: ${ROLES.join(', ')}.`;
  if (rest.length === 0) return { role: role as Role, written: null };
  const written: WrittenScope = { tags: [], controllers: [], outlets: [] };
  const given = new Set<string>();
  for (const word of rest) {
    const match = /^([a-z]+)=(.+)$/.exec(word);
    const key = match?.[1] as (typeof KEYS)[number] | undefined;
    if (!match || !key || !KEYS.includes(key))
      return `${where}: "${word.slice(0, 40)}" after the role of "${name}" is neither a role nor a scope: give tags=…, controllers=… or outlets=… (like ${example}).`;
    if (given.has(key)) return `${where}: ${key}= is given twice: list them once, separated by commas.`;
    given.add(key);
    const items = match[2]!.split(',').map((item) => item.trim());
    if (items.some((item) => !item))
      return `${where}: ${key}= has an empty item: separate them by single commas.`;
    if (key !== 'outlets') {
      written[key].push(...items);
      continue;
    }
    for (const item of items) {
      const colon = item.lastIndexOf(':');
      const outlet = Number(item.slice(colon + 1));
      if (colon <= 0 || !/^\d{1,3}$/.test(item.slice(colon + 1)) || outlet < 1)
        return `${where}: "${item.slice(0, 40)}" in outlets= is not <controller>:<outlet number>, like Bench-A:3.`;
      written.outlets.push({ controller: item.slice(0, colon), outlet });
    }
  }
  return { role: role as Role, written };
}

/** The scope with its controllers found among the saved ones (by id, name or alias), or a sentence. */
export function resolveScope(
  written: WrittenScope | null,
  controllers: readonly ControllerSummary[],
  where: string,
): Scope | string {
  if (!written) return { kind: 'all' };
  const missing: string[] = [];
  const find = (text: string): string => {
    const lower = text.toLowerCase();
    const found =
      controllers.find((c) => c.id === text) ??
      controllers.find((c) => c.name.toLowerCase() === lower || c.alias?.toLowerCase() === lower);
    if (!found) missing.push(text);
    return found?.id ?? text;
  };
  const ids = written.controllers.map(find);
  const outlets: OutletRef[] = written.outlets.map((o) => ({
    controllerId: find(o.controller),
    outlet: o.outlet,
  }));
  if (missing.length > 0)
    return `${where}: no saved controller is called ${missing.map((m) => `"${m}"`).join(', ')}: give its id, name or alias as \`plugboard list\` shows it (a controller added since the service started is named here after a restart; a tag reaches it at once).`;
  return { kind: 'some', tags: [...written.tags], controllers: ids, outlets };
}

/** The scope of a grant whose controllers are not found yet: only its tags, never more than written. */
export function unresolvedScope(written: WrittenScope | null): Scope {
  if (!written) return { kind: 'all' };
  return { kind: 'some', tags: [...written.tags], controllers: [], outlets: [] };
}

/** "operator of tag farm", "admin everywhere": for start-up lines. */
export function grantWords(role: Role, scope: Scope, controllers: readonly ControllerSummary[]): string {
  if (scope.kind === 'all') return `${role} everywhere`;
  const byId = (id: string) => controllers.find((c) => c.id === id) ?? null;
  return `${role} of ${scopeWords(scope, { controller: byId })}`;
}
