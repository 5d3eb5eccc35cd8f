/**
 * `GET /api/v1/activity` of the JSON API: the activity log through the Core's `activity/list` (the
 * observer role may read it), oldest first like a log file, narrowed by
 *
 *   from, until   a time (ISO 8601, e.g. 2026-11-24T08:00Z, or epoch ms): the range, both ends included
 *   controller    a saved controller's name or id;  outlet  its outlet number (1, 2, …)
 *   person        who acted (any case);  door  the door (window, cli, json-api, pdudaemon-http, …)
 *   limit         at most this many, the newest of the range
 *
 * Without `limit` the whole range is sent page by page as the store reads it (chunked): a year of a
 * farm's log never sits in the service's memory at once.
 */
import type { ServerResponse } from 'node:http';
import type { CallInput, Handlers } from '../../src-preload/contract';
import { ACTIVITY_DOORS, type ActivityDoor, type ControllerSummary } from '../../src-preload/model';
import { PlugboardError } from '../shared/errors';

const PAGE = 1_000;
const PARAMETERS = ['from', 'until', 'controller', 'outlet', 'person', 'door', 'limit'];

export function findController(controllers: readonly ControllerSummary[], ref: string): ControllerSummary {
  const found =
    controllers.find((c) => c.id === ref) ??
    controllers.find((c) => c.name.toLowerCase() === ref.toLowerCase());
  if (!found)
    throw new PlugboardError(
      'NOT_FOUND',
      `No saved controller is named ${JSON.stringify(ref.slice(0, 64))}.`,
    );
  return found;
}

function timeOf(name: string, text: string): number {
  const time = /^\d+$/.test(text) ? Number(text) : Date.parse(text);
  if (!Number.isFinite(time))
    throw new PlugboardError(
      'BAD_INPUT',
      `${name}=${JSON.stringify(text.slice(0, 40))} is not a time: give ISO 8601 (2026-11-24T08:00:00Z) or epoch milliseconds.`,
    );
  return time;
}

/** The query's filter, or a BAD_INPUT sentence naming the parameter that is wrong. */
async function filterOf(handlers: Handlers, query: URLSearchParams): Promise<CallInput<'activity/list'>> {
  for (const key of query.keys())
    if (!PARAMETERS.includes(key))
      throw new PlugboardError(
        'BAD_INPUT',
        `Unknown parameter ${JSON.stringify(key.slice(0, 40))}: /api/v1/activity takes ${PARAMETERS.join(', ')}.`,
      );
  const get = (name: string) => query.get(name) ?? undefined;
  const filter: CallInput<'activity/list'> = {};
  const from = get('from');
  const until = get('until');
  if (from !== undefined) filter.since = timeOf('from', from);
  if (until !== undefined) filter.until = timeOf('until', until);
  const controller = get('controller');
  if (controller !== undefined)
    filter.controllerId = findController(await handlers['controllers/list']({}), controller).id;
  const outlet = get('outlet');
  if (outlet !== undefined) {
    if (!/^\d{1,3}$/.test(outlet) || Number(outlet) < 1)
      throw new PlugboardError('BAD_INPUT', 'outlet= takes an outlet number: 1, 2, 3… as on the unit.');
    filter.outlet = Number(outlet);
  }
  const person = get('person');
  if (person !== undefined) filter.who = person;
  const door = get('door');
  if (door !== undefined) {
    if (!(ACTIVITY_DOORS as readonly string[]).includes(door))
      throw new PlugboardError('BAD_INPUT', `door= is one of ${ACTIVITY_DOORS.join(', ')}.`);
    filter.door = door as ActivityDoor;
  }
  const limit = get('limit');
  if (limit !== undefined) {
    if (!/^\d{1,6}$/.test(limit) || Number(limit) < 1 || Number(limit) > 100_000)
      throw new PlugboardError('BAD_INPUT', 'limit= takes a whole number from 1 to 100000.');
    filter.limit = Number(limit);
  }
  return filter;
}

/** Write `text`, waiting while the client is slower than the store. */
async function write(response: ServerResponse, text: string): Promise<void> {
  if (response.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      response.off('drain', done);
      response.off('close', closed);
      if (error) reject(error);
      else resolve();
    };
    const closed = () => done(new Error('the client went away'));
    response.on('drain', done);
    response.on('close', closed);
  });
}

/** Answer GET /api/v1/activity (HEAD: the headers alone). */
export async function serveActivity(
  handlers: Handlers,
  query: URLSearchParams,
  method: string,
  response: ServerResponse,
): Promise<void> {
  const filter = await filterOf(handlers, query);
  const pages =
    filter.limit !== undefined
      ? (async function* () {
          yield (await handlers['activity/list'](filter)).reverse();
        })()
      : (async function* () {
          let after: number | undefined;
          for (;;) {
            const page = await handlers['activity/list']({ ...filter, order: 'oldest', limit: PAGE, after });
            yield page;
            if (page.length < PAGE) return;
            after = page.at(-1)!.id;
          }
        })();
  // The first page before the headers: a refusal (a role, the store) is still an error status.
  const first = await pages.next();
  response.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Cache-Control': 'no-store',
    'X-Content-Type-Options': 'nosniff',
  });
  if (method === 'HEAD') {
    response.end();
    return;
  }
  let written = 0;
  const send = async (page: readonly unknown[]) => {
    for (const entry of page) {
      const text = JSON.stringify(entry, null, 2).replace(/\n/g, '\n  ');
      await write(response, `${written++ === 0 ? '[\n' : ',\n'}  ${text}`);
    }
  };
  if (!first.done) await send(first.value);
  for await (const page of pages) await send(page);
  response.end(written === 0 ? '[]\n' : '\n]\n');
}
