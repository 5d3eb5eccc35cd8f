import type { ControllerState, ControllerSummary, Group } from '../../src-preload/model';
import type { SwitchTarget } from './quick-switch';
import type { AppState } from './state/app-state.svelte';

/** One Core the quick switcher searches: this computer's (no name) or a lab's (its name). */
export interface SwitcherCore {
  core: string;
  /** Said after a lab's controllers and groups ("Rack 7 (Lab North)"); null for this computer's. */
  name: string | null;
  app: AppState;
}

/** What the quick switcher searches: every Core's controllers, states and groups, their ids tagged by Core. */
export interface SwitcherScope {
  controllers: ControllerSummary[];
  states: Record<string, ControllerState>;
  groups: Group[];
}

const SEPARATOR = '~';
const tag = (core: string, id: string) => `${core}${SEPARATOR}${id}`;

/**
 * The controllers, states and groups of every Core shown, for Go to… (Ctrl+K): ids become
 * `<core>~<id>` (a Core's and a controller's ids never hold `~`), so one list finds a lab's outlet as
 * well as this computer's and `untag` says where to go.
 */
export function switcherScope(cores: SwitcherCore[]): SwitcherScope {
  const scope: SwitcherScope = { controllers: [], states: {}, groups: [] };
  for (const { core, name, app } of cores) {
    const named = (s: string) => (name === null ? s : `${s} (${name})`);
    for (const c of app.controllers)
      scope.controllers.push({ ...c, id: tag(core, c.id), name: named(c.name) });
    for (const s of Object.values(app.states)) scope.states[tag(core, s.id)] = { ...s, id: tag(core, s.id) };
    for (const g of app.groups)
      scope.groups.push({
        ...g,
        id: tag(core, g.id),
        name: named(g.name),
        members: g.members.map((m) => ({ ...m, controllerId: tag(core, m.controllerId) })),
      });
  }
  return scope;
}

/** Where a picked result is: its Core and the target in that Core's own ids. */
export function untag(target: SwitchTarget): { core: string; target: SwitchTarget } {
  const split = (id: string): [string, string] => {
    const at = id.indexOf(SEPARATOR);
    return [id.slice(0, at), id.slice(at + 1)];
  };
  if (target.kind === 'group') {
    const [core, groupId] = split(target.groupId);
    return { core, target: { ...target, groupId } };
  }
  const [core, controllerId] = split(target.controllerId);
  return { core, target: { ...target, controllerId } };
}
