/**
 * `on`, `off` and `cycle` on saved controllers, through the Core: the targets (targets.ts) become one
 * request per controller, all controllers in parallel. --yes is passed to the Core as the person's
 * confirmation for critical outlets (the Core refuses them without it); --wait returns once the unit
 * confirmed the physical state.
 */
import type {
  ContractError,
  ControllerSummary,
  OutletActionResult,
  OutletState,
} from '../../src-preload/model';
import { isPlugboardError } from '../shared/errors';
import type { CoreAccess } from './core-access';
import { UsageError } from './io';
import { StateWatch } from './state-watch';
import { needsOutlets, parseTargets, resolveOutlets, type ControllerPart } from './targets';

/**
 * A guard on reaching a controller before anything is sent: its own requests give up sooner (the Core's
 * request timeout), and their failure comes back as the controller's status.
 */
const REACH_MS = 60_000;

export type FleetAction = 'on' | 'off' | 'cycle';

export interface FleetOptions {
  action: FleetAction;
  transient: boolean;
  /** Wait for the unit to confirm the physical state. */
  wait: boolean;
  /** How long --wait may wait for the unit's confirmation, ms. */
  timeoutMs: number;
  /** --yes: critical outlets may be switched off or cycled. */
  confirmCritical: boolean;
}

/** What happened on one controller. */
export interface PartOutcome {
  controller: ControllerSummary;
  /** The outlets asked ('all': every outlet, as the controller counts them). */
  outlets: number[] | 'all';
  result: OutletActionResult | null;
  /** The whole controller's part failed (unreachable, locked…): nothing was done there. */
  error: ContractError | null;
  /** Outlets not confirmed: the answer never came, or (--wait) the unit did not confirm in time. */
  unconfirmed: number[];
}

function contractOf(error: unknown): ContractError {
  if (isPlugboardError(error)) return error.toContractError();
  throw error;
}

async function send(
  core: CoreAccess,
  id: string,
  outlets: number[] | 'all',
  o: FleetOptions,
): Promise<OutletActionResult> {
  const { confirmCritical } = o;
  if (o.action === 'cycle')
    return core.call('outlets/cycle', {
      controllerId: id,
      outlet: (outlets as number[])[0]!,
      confirmCritical,
    });
  return core.call('outlets/set', {
    controllerId: id,
    outlets,
    on: o.action === 'on',
    transient: o.transient,
    confirmCritical,
  });
}

/** Whether an outlet shows the asked physical state, confirmed (nothing pending). */
function confirmed(
  outlet: OutletState | undefined,
  target: boolean,
  sawPending: boolean,
  cycle: boolean,
): boolean {
  if (!outlet || outlet.pending !== null) return false;
  return outlet.physicalState === target && (!cycle || sawPending);
}

export async function switchTargets(
  core: CoreAccess,
  words: readonly string[],
  o: FleetOptions,
): Promise<PartOutcome[]> {
  const watch = new StateWatch(core);
  try {
    const snapshot = await core.call('app/snapshot', {});
    watch.seed(snapshot.states);
    const parts = parseTargets(words, snapshot.controllers, snapshot.groups);
    const stateNeeded = (part: ControllerPart): boolean => o.action !== 'on' || o.wait || needsOutlets(part);
    // Every controller whose outlets matter is read first, all at once; nothing is sent before all are known.
    const readiness = await Promise.all(
      parts.map((part) =>
        stateNeeded(part) ? watch.ready(core, part.controller.id, part.controller.name, REACH_MS) : null,
      ),
    );
    const plans = parts.map((part, i) => {
      const ready = readiness[i];
      if (ready?.problem) return { part, outlets: [] as number[], error: ready.problem };
      return { part, outlets: resolveOutlets(part, ready?.state.outlets ?? []), error: null };
    });
    // Checked for every controller before any request leaves: nothing is half done by a usage error.
    if (
      o.action === 'cycle' &&
      plans.some((p) => !p.error && (p.outlets === 'all' || p.outlets.length !== 1))
    ) {
      throw new UsageError('cycle takes one outlet per controller; cycle the others in another command.');
    }
    const outcomes = await Promise.all(
      plans.map(async ({ part, outlets, error }): Promise<PartOutcome> => {
        const base = { controller: part.controller, outlets };
        if (error) return { ...base, result: null, error, unconfirmed: [] };
        try {
          const result = await send(core, part.controller.id, outlets, o);
          return { ...base, result, error: null, unconfirmed: result.unconfirmed ?? [] };
        } catch (caught) {
          return { ...base, result: null, error: contractOf(caught), unconfirmed: [] };
        }
      }),
    );
    if (o.wait) await waitConfirmed(watch, outcomes, o);
    return outcomes;
  } finally {
    watch.close();
  }
}

/** Wait until every outlet asked (and not refused) shows the asked physical state; the rest stay unconfirmed. */
async function waitConfirmed(watch: StateWatch, outcomes: PartOutcome[], o: FleetOptions): Promise<void> {
  const target = o.action !== 'off';
  const waiting = outcomes.flatMap((outcome) => {
    if (!outcome.result) return [];
    const failed = new Set(outcome.result.failed.map((f) => f.outlet));
    const asked = outcome.result.requested.length
      ? outcome.result.requested
      : (watch.latest(outcome.controller.id)?.outlets.map((x) => x.number) ?? []);
    return asked.filter((n) => !failed.has(n)).map((n) => ({ outcome, outlet: n }));
  });
  const open = (): typeof waiting =>
    waiting.filter(({ outcome, outlet }) => {
      const id = outcome.controller.id;
      const state = watch.latest(id)?.outlets.find((x) => x.number === outlet);
      return !confirmed(state, target, watch.sawPending(id, outlet), o.action === 'cycle');
    });
  await watch.until(() => (open().length === 0 ? true : undefined), o.timeoutMs);
  for (const outcome of outcomes) outcome.unconfirmed = [];
  for (const { outcome, outlet } of open()) outcome.unconfirmed.push(outlet);
}
