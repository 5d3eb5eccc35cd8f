/*
 * `/api/v1/controllers` of the JSON API: every saved controller, one of them (by name or id), and
 * switching or cycling one of its outlets, through the caller's handlers.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Handlers } from '../../src-preload/contract';
import type { ControllerState, ControllerSummary, OutletActionResult } from '../../src-preload/model';
import { isPlugboardError, PlugboardError } from '../shared/errors';
import { findController } from './api-activity';
import { allow, readJsonBody } from './api-http';
import { sendJson } from './listener';

/** Answer `/api/v1/controllers[/<name or id>[/outlets/<n>]]`, split into `parts`; any other path is NOT_FOUND. */
export async function serveControllers(
  handlers: Handlers,
  parts: string[],
  url: URL,
  method: string,
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  if (
    parts[0] !== 'api' ||
    parts[1] !== 'v1' ||
    parts[2] !== 'controllers' ||
    parts.length > 6 ||
    parts.length === 5
  )
    throw new PlugboardError(
      'NOT_FOUND',
      `No such API path ${url.pathname.slice(0, 80)}: see /api/v1/controllers.`,
    );
  const snapshot = await handlers['app/snapshot']({});
  const states = new Map(snapshot.states.map((s) => [s.id, s]));
  if (parts.length === 3) {
    allow(method, ['GET', 'HEAD']);
    sendJson(
      response,
      200,
      snapshot.controllers.map((c) => controllerView(c, states.get(c.id))),
    );
    return;
  }
  const controller = findController(snapshot.controllers, parts[3]!);
  if (parts.length === 4) {
    allow(method, ['GET', 'HEAD']);
    sendJson(response, 200, controllerView(controller, states.get(controller.id)));
    return;
  }
  if (parts[4] !== 'outlets')
    throw new PlugboardError('NOT_FOUND', `No such API path ${url.pathname.slice(0, 80)}.`);
  allow(method, ['POST']);
  const outlet = Number(parts[5]);
  if (!/^\d+$/.test(parts[5]!) || outlet < 1)
    throw new PlugboardError(
      'BAD_INPUT',
      `Outlet ${JSON.stringify(parts[5])} is not an outlet number; outlets are numbered from 1, as on the unit.`,
    );
  const { action, confirmCritical } = await readAction(request);
  const result: OutletActionResult = await confirmable(
    action,
    action === 'cycle'
      ? handlers['outlets/cycle']({ controllerId: controller.id, outlet, confirmCritical })
      : handlers['outlets/set']({
          controllerId: controller.id,
          outlets: [outlet],
          on: action === 'on',
          confirmCritical,
        }),
  );
  const failure = result.failed[0];
  if (failure)
    throw new PlugboardError(
      failure.error.code,
      failure.error.message,
      failure.error.detail,
      failure.error.action ? { action: failure.error.action } : {},
    );
  sendJson(response, result.unconfirmed?.length ? 202 : 200, {
    controller: controller.name,
    outlet,
    action,
    ...result,
  });
}

/** A critical outlet refused: the Core's sentence as it is, and how to confirm through this API. */
async function confirmable<T>(action: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    if (!isPlugboardError(error) || error.code !== 'CRITICAL_UNCONFIRMED') throw error;
    throw new PlugboardError(error.code, error.message, error.detail, {
      action: `Send {"action": "${action}", "confirmCritical": true} to confirm.`,
    });
  }
}

async function readAction(
  request: IncomingMessage,
): Promise<{ action: 'on' | 'off' | 'cycle'; confirmCritical: boolean }> {
  const parsed: { action?: unknown; confirmCritical?: unknown } = await readJsonBody(request);
  const { action, confirmCritical } = parsed;
  if (
    (action === 'on' || action === 'off' || action === 'cycle') &&
    [undefined, true, false].includes(confirmCritical as never)
  )
    return { action, confirmCritical: confirmCritical === true };
  throw new PlugboardError(
    'BAD_INPUT',
    'Send a JSON body {"action": "on"}, "off" or "cycle" (with "confirmCritical": true for a critical outlet).',
  );
}

export function controllerView(controller: ControllerSummary, state: ControllerState | undefined): unknown {
  return {
    id: controller.id,
    name: controller.name,
    url: controller.url,
    status: state?.status ?? 'connecting',
    problem: state?.problem ?? null,
    lastUpdate: state?.lastUpdate ?? null,
    outlets: (state?.outlets ?? []).map((o) => ({
      number: o.number,
      name: o.name,
      state: o.state,
      transientState: o.transientState,
      physicalState: o.physicalState,
      locked: o.locked,
      critical: o.critical,
      pending: o.pending,
    })),
    meters: (state?.meters ?? [])
      .filter((m) => !m.internal)
      .map((m) => ({ key: m.key, name: m.name, quantity: m.quantity, value: m.value, unit: m.unit })),
  };
}
