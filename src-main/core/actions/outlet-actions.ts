/**
 * Outlet actions on one controller. Each sends its request first — nothing is awaited before it goes on
 * the wire except the client itself — then marks the outlets pending (pushed right after), records the
 * outcome in the activity log, and asks for quick polls until the controller confirms. A switch takes the
 * permit of the rules it passed first (switch-rules.ts: reservations, critical outlets). A request whose
 * answer never came (it timed out on the wire) is neither done nor failed: its outlets stay pending,
 * the result lists them as `unconfirmed`, and the poll that settles them records the outcome.
 */
import type { Actor } from '../../../src-preload/model';
import type { ContractError, OutletActionResult, OutletFailure } from '../../../src-preload/model';
import { internalError, isPlugboardError } from '../../shared/errors';
import type { Logger } from '../../shared/logging';
import type { OutletSettings } from '../../dli/api-settings';
import type { OutletSelection } from '../../dli/types';
import { capitalise, outletLabel } from '../../../src-preload/words';
import type { ControllerSession } from '../session/session';
import type { PendingRequest } from '../session/session-pending';
import { assertPermitFor, type SwitchPermit } from './switch-rules';

/** A TIMEOUT on a state-changing request (the client says so): it may have been carried out. */
function mayHaveHappened(error: unknown): boolean {
  return isPlugboardError(error) && error.code === 'TIMEOUT' && error.detail?.unanswered === true;
}

/**
 * The contract's form of a failure that is thrown on to the door: one of Plugboard's own (not a
 * PlugboardError) is an internal error, whose cause the dispatcher logs when it catches it. A failure
 * kept in a result instead is `keptFailure`'s.
 */
export function contractError(error: unknown): ContractError {
  return isPlugboardError(error)
    ? error.toContractError()
    : { code: 'INTERNAL', message: 'Plugboard hit an internal error; the details are in its log.' };
}

/**
 * The contract's form of a failure kept in a result and not thrown on (a group run's part on one
 * controller, a sequence's step): no dispatcher will see it, so one of Plugboard's own is logged here,
 * with its cause and stack, before the result says the details are in the log.
 */
export function keptFailure(error: unknown, doing: string, log: Logger): ContractError {
  return isPlugboardError(error)
    ? error.toContractError()
    : internalError(doing, error, log).toContractError();
}

/** One activity entry per outlet (or one for the whole controller when the outlets are not known). */
function record(
  session: ControllerSession,
  outlets: readonly number[],
  action: string | ((outlet: number | null) => string),
  actor: Actor,
  failures: readonly OutletFailure[] | ContractError,
): void {
  const each = outlets.length ? outlets : [null];
  for (const outlet of each) {
    const error = Array.isArray(failures)
      ? (failures.find((f) => f.outlet === outlet)?.error ?? null)
      : (failures as ContractError);
    session.record({
      outlet,
      action: typeof action === 'string' ? action : action(outlet),
      actor,
      result: error ? 'error' : 'ok',
      error,
    });
  }
}

async function run<T extends OutletActionResult>(
  session: ControllerSession,
  m: PendingRequest,
  send: () => Promise<T>,
  afterAnswer: (result: T) => OutletFailure[] = (result) => result.failed,
): Promise<OutletActionResult> {
  const numbers = [...m.targets.keys()];
  const actionOf = (outlet: number | null) =>
    m.action(outlet === null ? true : (m.targets.get(outlet) ?? true));
  const since = session.now();
  const sending = send();
  const marks = session.markPending(m, since);
  let result: T;
  try {
    result = await sending;
  } catch (error) {
    if (mayHaveHappened(error)) {
      const unconfirmed = session.pendingUnanswered(marks);
      if (unconfirmed.length) return { requested: numbers, failed: [], unconfirmed };
    }
    session.unmarkPending(marks);
    record(session, numbers, actionOf, m.actor, contractError(error));
    throw error;
  }
  const failed = afterAnswer(result);
  session.pendingAnswered(
    marks,
    failed.map((f) => f.outlet),
  );
  record(session, result.requested.length ? result.requested : numbers, actionOf, m.actor, failed);
  return { requested: result.requested, failed };
}

/**
 * Saved (persistent) or temporary (transient) on/off of one, several or all outlets: one request. Saved:
 * a PUT of `state` (a matrix PUT for several, `relay/outlets/=i,j/state/`). Temporary on several outlets:
 * the unit's simultaneous switch (`set_outlet_transient_states`, all or nothing; older firmware: one
 * matrix PUT of `transient_state`).
 */
export async function setOutlets(
  session: ControllerSession,
  permit: SwitchPermit,
  selection: OutletSelection,
  on: boolean,
  transient: boolean,
  actor: Actor,
  /** How the activity log words it, when not plain "on"/"off" (a delayed cycle's two halves). */
  label?: string,
): Promise<OutletActionResult> {
  assertPermitFor(permit, session);
  const client = await session.client();
  const numbers =
    selection === 'all'
      ? (session.lastOutlets?.map((o) => o.number) ?? [])
      : [...new Set(selection)].sort((a, b) => a - b);
  const action = () => label ?? `${on ? 'on' : 'off'}${transient ? ' (temporary)' : ''}`;
  return run(
    session,
    {
      kind: transient ? 'transientState' : 'state',
      action,
      actor,
      targets: new Map(numbers.map((n) => [n, on])),
    },
    () =>
      transient && selection !== 'all' && numbers.length > 1
        ? client.outlets.switch(
            numbers.map((outlet) => ({ outlet, on })),
            { priority: 'interactive' },
          )
        : client.outlets.setState(selection, on, { transient, priority: 'interactive' }),
  );
}

/**
 * Switch several outlets, each to its own state. Temporary (transient states): one simultaneous switch
 * where the firmware allows. Saved (persistent states): one matrix PUT of `state` per target value.
 */
export async function switchOutlets(
  session: ControllerSession,
  permit: SwitchPermit,
  changes: readonly { outlet: number; on: boolean }[],
  transient: boolean,
  actor: Actor,
): Promise<OutletActionResult> {
  assertPermitFor(permit, session);
  const client = await session.client();
  const targets = new Map(changes.map((c) => [c.outlet, c.on]));
  const options = { priority: 'interactive' } as const;
  return run(
    session,
    {
      kind: transient ? 'transientState' : 'state',
      action: (on) => `${on ? 'on' : 'off'}${transient ? ' (temporary, together)' : ''}`,
      actor,
      targets,
    },
    () => (transient ? client.outlets.switch(changes, options) : client.outlets.setStates(changes, options)),
  );
}

/** Power-cycle one or several outlets (several: one matrix request). */
export async function cycleOutlets(
  session: ControllerSession,
  permit: SwitchPermit,
  outlets: readonly number[],
  actor: Actor,
): Promise<OutletActionResult> {
  assertPermitFor(permit, session);
  const client = await session.client();
  const numbers = [...new Set(outlets)].sort((a, b) => a - b);
  const nothingToCycle = (outlet: number): OutletFailure => ({
    outlet,
    error: {
      code: 'BAD_INPUT',
      message: `${capitalise(outletLabel(outlet, nameOf(session, outlet)))} on ${session.summary.name} is off, so there is nothing to cycle. Switch it on instead.`,
    },
  });
  return run(
    session,
    { kind: 'cycle', action: () => 'cycle', actor, targets: new Map(numbers.map((n) => [n, true])) },
    async () => {
      if (numbers.length > 1) return client.outlets.cycleSeveral(numbers, { priority: 'interactive' });
      const outlet = numbers[0]!;
      try {
        const { cycled } = await client.outlets.cycle(outlet, { priority: 'interactive' });
        return { requested: [outlet], failed: [], notCycled: cycled ? [] : [outlet] };
      } catch (error) {
        if (isPlugboardError(error) && (error.code === 'LOCKED' || error.code === 'FORBIDDEN')) {
          return { requested: [outlet], failed: [{ outlet, error: error.toContractError() }], notCycled: [] };
        }
        throw error;
      }
    },
    (result) => [...result.failed, ...result.notCycled.map(nothingToCycle)],
  );
}

/** Rename one outlet; the new name shows at once (the controller accepted it). */
export async function renameOutlet(
  session: ControllerSession,
  outlet: number,
  name: string,
  actor: Actor,
): Promise<void> {
  const client = await session.client();
  const action = `renamed to "${name.trim()}"`;
  try {
    await client.outlets.rename(outlet, name, { priority: 'interactive' });
  } catch (error) {
    record(session, [outlet], action, actor, contractError(error));
    throw error;
  }
  session.patchOutlet(outlet, { name: name.trim() });
  record(session, [outlet], action, actor, []);
}

/** Change one outlet's cycle delay and/or critical flag; the new values show at once. */
export async function configureOutlet(
  session: ControllerSession,
  outlet: number,
  settings: OutletSettings,
  actor: Actor,
): Promise<void> {
  const client = await session.client();
  const { cycleDelay, critical } = settings;
  const parts = [
    cycleDelay === undefined
      ? null
      : cycleDelay === null
        ? 'cycle delay set to the relay default'
        : `cycle delay set to ${cycleDelay} s`,
    critical === undefined ? null : critical ? 'marked critical' : 'no longer critical',
  ].filter((part) => part !== null);
  const action = parts.join(', ') || 'settings unchanged';
  try {
    await client.settings.configureOutlet(outlet, settings, { priority: 'interactive' });
  } catch (error) {
    record(session, [outlet], action, actor, contractError(error));
    throw error;
  }
  session.patchOutlet(outlet, {
    ...(cycleDelay === undefined ? {} : { cycleDelay }),
    ...(critical === undefined ? {} : { critical }),
  });
  record(session, [outlet], action, actor, []);
}

function nameOf(session: ControllerSession, outlet: number): string | undefined {
  return session.lastOutlets?.find((o) => o.number === outlet)?.name;
}
