/**
 * What `on`, `off` and `cycle` address through the Core: `"Bench A:3"`, `"Bench A:1-4,7"`,
 * `"Bench A:Router"` (an outlet name), `"Bench A:all"`, or a group name; several in one command. A bare
 * controller name is refused: every outlet of a unit is said as `NAME:all`, never by leaving it out.
 *
 * Parsing needs only the saved controllers and groups (usage errors come before anything is sent);
 * outlet names are resolved once the controller's outlets are known (`resolveOutlets`).
 */
import type { ControllerSummary, Group, OutletState } from '../../src-preload/model';
import { UsageError, excerpt } from './io';
import { parseOutletSpec, type OutletSpec } from './outlet-spec';

/** The outlets one word names on one controller, before the controller's outlets are known. */
export type OutletWords = OutletSpec;

export interface ControllerPart {
  controller: ControllerSummary;
  /** What was typed for it, for messages. */
  typed: string[];
  outlets: OutletWords[];
}

const same = (a: string, b: string): boolean => a.trim().toLowerCase() === b.trim().toLowerCase();

/** `3`, `1-4,7`, `all`, or outlet names (resolved later), as outlet-spec.ts parses them. */
export function parseOutletWords(text: string, where: string): OutletWords {
  if (!text.trim())
    throw new UsageError(`"${excerpt(where)}" names no outlet: add one, e.g. "${excerpt(where)}3".`);
  return parseOutletSpec(text);
}

function quoted(names: readonly string[]): string {
  return names.map((n) => `"${n}"`).join(', ');
}

/** Targets to controller parts; several targets on one controller join into one part (one request). */
export function parseTargets(
  words: readonly string[],
  controllers: readonly ControllerSummary[],
  groups: readonly Group[],
): ControllerPart[] {
  if (words.length === 0) throw new UsageError('Name what to switch, e.g. "Bench A:3" or a group name.');
  const parts = new Map<string, ControllerPart>();
  const add = (controller: ControllerSummary, typed: string, outlets: OutletWords): void => {
    const part = parts.get(controller.id) ?? { controller, typed: [], outlets: [] };
    part.typed.push(typed);
    part.outlets.push(outlets);
    parts.set(controller.id, part);
  };
  for (const word of words) {
    const group = groups.find((g) => same(g.name, word));
    const whole = controllers.find((c) => same(c.name, word));
    const colon = [...word.matchAll(/:/g)].map((m) => m.index);
    const split = colon
      .map((at) => ({ controller: controllers.find((c) => same(c.name, word.slice(0, at))), at }))
      .filter((s) => s.controller);
    if (group && (whole || split.length)) {
      const other = whole ?? split[0]!.controller!;
      throw new UsageError(
        `"${excerpt(word)}" is both the group "${group.name}" and controller "${other.name}"${whole ? '' : "'s outlets"}: rename one of them.`,
      );
    }
    if (group) {
      if (group.members.length === 0) throw new UsageError(`Group "${group.name}" has no outlets.`);
      for (const member of group.members) {
        const controller = controllers.find((c) => c.id === member.controllerId);
        if (controller) add(controller, group.name, { kind: 'numbers', numbers: [member.outlet] });
      }
      continue;
    }
    if (whole) {
      throw new UsageError(
        `Name the outlets of "${whole.name}": "${whole.name}:3", "${whole.name}:1-4", "${whole.name}:Router" or "${whole.name}:all".`,
      );
    }
    const chosen = split[0];
    if (!chosen) {
      const known = [...controllers.map((c) => c.name), ...groups.map((g) => g.name)];
      throw new UsageError(
        `"${excerpt(word)}" is no saved controller or group.${known.length ? ` Saved: ${quoted(known)}.` : ' Add a controller with: controllers add NAME --url …'}`,
      );
    }
    add(chosen.controller!, word, parseOutletWords(word.slice(chosen.at + 1), word.slice(0, chosen.at + 1)));
  }
  return [...parts.values()];
}

/** A part's outlet numbers, names looked up in the controller's outlets (a name on two outlets is ambiguous). */
export function resolveOutlets(part: ControllerPart, outlets: readonly OutletState[]): number[] | 'all' {
  if (part.outlets.some((o) => o.kind === 'all')) return 'all';
  const numbers = new Set<number>();
  const name = part.controller.name;
  for (const words of part.outlets) {
    if (words.kind === 'numbers') words.numbers.forEach((n) => numbers.add(n));
    if (words.kind !== 'names') continue;
    const whole = outlets.filter((o) => same(o.name, words.text));
    const items = whole.length ? [words.text] : words.text.split(',');
    for (const item of items) {
      if (/^\s*\d+\s*$/.test(item)) {
        numbers.add(Number(item));
        continue;
      }
      const found = outlets.filter((o) => same(o.name, item));
      if (found.length > 1) {
        throw new UsageError(
          `"${excerpt(item.trim())}" names outlets ${found.map((o) => o.number).join(' and ')} on ${name}: give the number instead.`,
        );
      }
      if (!found.length) {
        const known = outlets.map((o) => `${o.number} "${o.name}"`).join(', ');
        throw new UsageError(`${name} has no outlet named "${excerpt(item.trim())}". Its outlets: ${known}.`);
      }
      numbers.add(found[0]!.number);
    }
  }
  const count = outlets.length;
  const beyond = [...numbers].filter((n) => count > 0 && n > count);
  if (beyond.length)
    throw new UsageError(`${name} has outlets 1-${count}; there is no outlet ${beyond.join(', ')}.`);
  return [...numbers].sort((a, b) => a - b);
}

/** Whether a part needs the controller's outlets before anything is sent (names, or every outlet). */
export function needsOutlets(part: ControllerPart): boolean {
  return part.outlets.some((o) => o.kind !== 'numbers');
}
