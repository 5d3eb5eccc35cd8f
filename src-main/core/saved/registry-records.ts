import * as v from 'valibot';
import { fingerprint } from '../../../src-preload/contract';
import {
  mqttTopicProblem,
  type ControllerSummary,
  type Group,
  type OutletRef,
} from '../../../src-preload/model';
import { normaliseControllerUrl, normaliseFingerprint } from '../../shared/controller-address';
import { CONTROLLER_PALETTE } from './colour-palette';
import { PlugboardError } from '../../shared/errors';
import { neutralise, unsafeCharacterIn } from '../../shared/text';
import { readSteps } from './sequence-steps';

const MAX_TAGS = 16;
const MAX_TAG_LENGTH = 40;

/**
 * A controller's tags, trimmed, duplicates (any case) removed, in the order given. Strict (what a person
 * typed): a bad tag is refused with a sentence. Lenient (what was saved): a bad tag is dropped.
 */
export function cleanTags(tags: readonly string[], lenient = false): string[] {
  const result: string[] = [];
  const seen = new Set<string>();
  for (const raw of tags) {
    const tag = typeof raw === 'string' ? raw.trim() : '';
    const unsafe = unsafeCharacterIn(tag);
    const bad = !tag || tag.length > MAX_TAG_LENGTH || /[,;]/.test(tag) || unsafe !== null;
    if (bad && lenient) continue;
    if (bad)
      throw new PlugboardError(
        'BAD_INPUT',
        `The tag "${neutralise(String(raw), 50)}" must be 1–${MAX_TAG_LENGTH} characters without commas or semicolons${unsafe ? `, and it contains ${unsafe}` : ''}.`,
      );
    const key = tag.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    result.push(tag);
  }
  if (result.length > MAX_TAGS) {
    if (lenient) return result.slice(0, MAX_TAGS);
    throw new PlugboardError('BAD_INPUT', `A controller has at most ${MAX_TAGS} tags; remove some.`);
  }
  return result;
}

/**
 * What the registry keeps in the shared settings file, and how it reads it back. The file is JSON a
 * person may edit (or break): every entry is validated, cosmetic mistakes are repaired, and an entry
 * that cannot be used is dropped with a reason instead of crashing the app.
 */

export const CONTROLLERS_KEY = 'controllers';
export const GROUPS_KEY = 'groups';

export const MAX_NAME_LENGTH = 64;
export const MAX_OUTLET_NUMBER = 64;

const text = (max: number) =>
  v.pipe(
    v.string('must be text'),
    v.trim(),
    v.minLength(1, 'is empty'),
    v.maxLength(max, `is longer than ${max} characters`),
  );

/**
 * A saved name: as `text`, and cleaned of control and text-direction characters (a name saved before
 * they were refused, or taken from a unit's own name) rather than dropping the controller or group.
 */
const savedName = (max: number) =>
  v.pipe(
    text(max),
    v.transform((name: string) => neutralise(name, max).trim() || '?'),
  );

const storedUrl = v.pipe(
  v.string('must be text'),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    try {
      return normaliseControllerUrl(dataset.value);
    } catch (error) {
      addIssue({ message: error instanceof Error ? error.message : 'is not an address' });
      return NEVER;
    }
  }),
);

/** What the contract accepts as a fingerprint, in the saved form; anything else reads as "none pinned". */
const storedFingerprint = v.fallback(
  v.nullable(v.pipe(fingerprint, v.transform(normaliseFingerprint))),
  null,
);

export const storedControllerSchema = v.object({
  id: text(64),
  name: savedName(MAX_NAME_LENGTH),
  url: storedUrl,
  auth: v.picklist(['digest', 'basic', 'token'], 'must be digest, basic or token'),
  user: v.fallback(v.pipe(v.string(), v.trim(), v.maxLength(64)), ''),
  hasSecret: v.fallback(v.boolean(), false),
  fingerprint: storedFingerprint,
  colour: v.fallback(v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/)), CONTROLLER_PALETTE[0]),
  order: v.fallback(v.pipe(v.number(), v.finite()), Number.MAX_SAFE_INTEGER),
  demo: v.fallback(v.boolean(), false),
  /** pdudaemon's second name; anything unusable reads as none. */
  alias: v.fallback(
    v.optional(
      v.pipe(
        v.string(),
        v.trim(),
        v.regex(/^[^\s]{1,64}$/),
        v.check((alias) => unsafeCharacterIn(alias) === null),
      ),
    ),
    undefined,
  ),
  /** The topic root its unit publishes under (MQTT); absent or unusable reads as none. */
  mqttTopic: v.fallback(
    v.pipe(
      v.optional(v.nullable(v.string()), null),
      v.check(
        (topic) => topic === null || (mqttTopicProblem(topic) === null && unsafeCharacterIn(topic) === null),
      ),
    ),
    null,
  ),
  /** Tags; unusable ones are dropped one by one, not the controller. */
  tags: v.fallback(
    v.optional(
      v.pipe(
        v.array(v.unknown()),
        v.transform((list) =>
          cleanTags(
            list.filter((t): t is string => typeof t === 'string'),
            true,
          ),
        ),
      ),
    ),
    undefined,
  ),
});

export const storedGroupSchema = v.object({
  id: text(64),
  name: savedName(MAX_NAME_LENGTH),
  members: v.array(
    v.object({
      controllerId: text(64),
      outlet: v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(MAX_OUTLET_NUMBER)),
    }),
  ),
  kind: v.optional(v.literal('sequence')),
  steps: v.optional(v.unknown()),
});

export type Problem = (reason: string) => void;

function describeIssues(issues: readonly v.BaseIssue<unknown>[]): string {
  return issues
    .slice(0, 3)
    .map((issue) => {
      const path = v.getDotPath(issue);
      return path ? `${path} ${issue.message}` : issue.message;
    })
    .join('; ');
}

function entryLabel(raw: unknown, index: number): string {
  const name = typeof raw === 'object' && raw !== null ? (raw as { name?: unknown }).name : undefined;
  return typeof name === 'string' && name.trim()
    ? `#${index + 1} ("${name.trim().slice(0, 40)}")`
    : `#${index + 1}`;
}

const lowerName = (name: string) => name.normalize('NFC').toLowerCase();

/** The saved controllers as stored, validated; duplicates (id or name) after the first are dropped. */
export function readControllers(raw: unknown, problem: Problem): ControllerSummary[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problem(`the saved "${CONTROLLERS_KEY}" is not a list; ignoring it`);
    return [];
  }
  const ids = new Set<string>();
  const names = new Set<string>();
  const result: ControllerSummary[] = [];
  raw.forEach((entry, index) => {
    const parsed = v.safeParse(storedControllerSchema, entry);
    if (!parsed.success) {
      problem(`dropped saved controller ${entryLabel(entry, index)}: ${describeIssues(parsed.issues)}`);
      return;
    }
    const record = parsed.output;
    if (ids.has(record.id))
      return problem(
        `dropped saved controller ${entryLabel(entry, index)}: its id ${record.id} is used twice`,
      );
    if (names.has(lowerName(record.name)))
      return problem(`dropped saved controller ${entryLabel(entry, index)}: the name is used twice`);
    if (record.auth === 'token') record.user = '';
    if (record.alias === undefined) delete record.alias;
    if (!record.tags?.length) delete record.tags;
    ids.add(record.id);
    names.add(lowerName(record.name));
    result.push(record);
  });
  dropClashingAliases(result, problem);
  return result.sort((a, b) => a.order - b.order);
}

/** An alias that is another controller's name, or an earlier one's alias, is dropped (names win). */
function dropClashingAliases(list: ControllerSummary[], problem: Problem): void {
  const aliases = new Set<string>();
  for (const record of list) {
    if (record.alias === undefined) continue;
    const word = lowerName(record.alias);
    if (aliases.has(word) || list.some((c) => c !== record && lowerName(c.name) === word)) {
      problem(
        `saved controller "${record.name}": its alias is another controller's name or alias; ignoring the alias`,
      );
      delete record.alias;
    } else aliases.add(word);
  }
}

/** The saved groups, validated; members of controllers that are not saved are dropped, and so are empty groups. */
export function readGroups(raw: unknown, controllerIds: ReadonlySet<string>, problem: Problem): Group[] {
  if (raw === undefined) return [];
  if (!Array.isArray(raw)) {
    problem(`the saved "${GROUPS_KEY}" is not a list; ignoring it`);
    return [];
  }
  const ids = new Set<string>();
  const names = new Set<string>();
  const result: Group[] = [];
  raw.forEach((entry, index) => {
    const parsed = v.safeParse(storedGroupSchema, entry);
    if (!parsed.success)
      return problem(`dropped saved group ${entryLabel(entry, index)}: ${describeIssues(parsed.issues)}`);
    const group = parsed.output;
    if (ids.has(group.id) || names.has(lowerName(group.name))) {
      return problem(`dropped saved group ${entryLabel(entry, index)}: its id or name is used twice`);
    }
    const members = uniqueOutletRefs(
      group.members.filter((member) => controllerIds.has(member.controllerId)),
    );
    if (members.length < group.members.length) {
      problem(
        `saved group ${entryLabel(entry, index)} names outlets of controllers that are not saved; ignoring those outlets`,
      );
    }
    if (members.length === 0)
      return problem(`dropped saved group ${entryLabel(entry, index)}: it has no outlets left`);
    ids.add(group.id);
    names.add(lowerName(group.name));
    const steps = group.kind === 'sequence' ? readSteps(group.steps, controllerIds) : null;
    result.push({ id: group.id, name: group.name, members, ...(steps ? { kind: 'sequence', steps } : {}) });
  });
  return result;
}

/** Each controller's outlet once, in first-seen order, with only its two fields (group members, tray favourites). */
export function uniqueOutletRefs(refs: readonly OutletRef[]): OutletRef[] {
  const seen = new Set<string>();
  const result: OutletRef[] = [];
  for (const { controllerId, outlet } of refs) {
    const key = `${controllerId}\u0000${outlet}`;
    if (seen.has(key)) continue;
    seen.add(key);
    result.push({ controllerId, outlet });
  }
  return result;
}

/** Whether two records log in to the same place the same way (address, login method, user, pinned certificate). */
export function sameConnection(a: ControllerSummary, b: ControllerSummary): boolean {
  return a.url === b.url && a.auth === b.auth && a.user === b.user && a.fingerprint === b.fingerprint;
}

export function sameName(a: string, b: string): boolean {
  return lowerName(a.trim()) === lowerName(b.trim());
}

/** The stored form of the controllers: explicit fields only (nothing else can slip in), orders 0…n-1. */
export function controllerRecords(list: readonly ControllerSummary[]): ControllerSummary[] {
  return list.map((c, order) => ({
    id: c.id,
    name: c.name,
    url: c.url,
    auth: c.auth,
    user: c.user,
    hasSecret: c.hasSecret,
    fingerprint: c.fingerprint,
    colour: c.colour,
    order,
    demo: c.demo,
    ...(c.alias ? { alias: c.alias } : {}),
    ...(c.tags?.length ? { tags: [...c.tags] } : {}),
    mqttTopic: c.mqttTopic ?? null,
  }));
}

export function groupRecords(groups: readonly Group[]): Group[] {
  return groups.map((g) => ({
    id: g.id,
    name: g.name,
    members: g.members.map((m) => ({ controllerId: m.controllerId, outlet: m.outlet })),
    ...(g.kind === 'sequence' && g.steps ? { kind: g.kind, steps: structuredClone(g.steps) } : {}),
  }));
}
