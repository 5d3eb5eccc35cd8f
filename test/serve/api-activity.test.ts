/**
 * GET /api/v1/activity of `plugboard serve`'s JSON API, over a Core whose activity log is in a lab store
 * (SQLite in a temporary folder) holding more than one page: "who switched Bench A:3 last Tuesday" by
 * controller, outlet and time range, the whole log streamed oldest first, the newest few, the
 * observer's right to read it, and a sentence for a bad parameter.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityEntry } from '../../src-preload/model';
import { openLabRecords } from '../../src-main/core/saved-core';
import { startApiListener } from '../../src-main/serve/api';
import type { RunningListener } from '../../src-main/serve/listener';
import { ServiceMetrics } from '../../src-main/serve/metrics';
import { parseTokens } from '../../src-main/serve/tokens';
import { addController, cleanUp, emulator, newCore } from '../core/harness';

const DAY = 86_400_000;
const TUESDAY = Date.UTC(2026, 10, 17);
const OBSERVER = 'watcher-0123456789abcdef';
let dir: string;
let origin: string;
let listener: RunningListener;
let benchA: string;
const seeded: ActivityEntry[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'plugboard-api-activity-'));
  const records = await openLabRecords(dir, '0.0.0-test', () => undefined, Date.now(), {});
  const h = newCore({ records });
  benchA = (await addController(h, await emulator(), { name: 'Bench A' })).id;
  // Two weeks of a farm, one entry every 8 minutes, outlets 1–8 in turn, three people.
  const start = TUESDAY - 7 * DAY;
  for (let n = 0; n < 2_520; n++) {
    const time = start + n * 8 * 60_000;
    seeded.push({
      id: time * 1000,
      time,
      controllerId: n % 3 === 0 ? 'other' : benchA,
      controllerName: n % 3 === 0 ? 'Rack 7' : 'Bench A',
      outlet: (n % 8) + 1,
      action: n % 2 ? 'on' : 'off',
      source: 'json-api',
      who: ['alice', 'bob', 'ci-runner'][n % 3]!,
      result: 'ok',
      error: null,
    });
  }
  await records.activity.records.write(seeded);
  listener = await startApiListener({
    core: h.core,
    spec: { name: 'api', host: '127.0.0.1', port: 0 },
    allow: null,
    tokens: parseTokens(`watcher[observer]:${OBSERVER}`, 'test') as never,
    hostNames: [],
    tls: null,
    metrics: new ServiceMetrics(),
    log: () => undefined,
  });
  origin = /api: (http:\/\/[^/]+)\//.exec(listener.lines[0]!)![1]!;
});
afterAll(async () => {
  await listener?.close(1_000);
  await cleanUp();
  rmSync(dir, { recursive: true, force: true });
});

function fetchJson(path: string, token: string | null = OBSERVER) {
  return new Promise<{ status: number; chunked: boolean; body: unknown }>((resolve, reject) => {
    get(new URL(path, origin), { headers: token ? { Authorization: `Bearer ${token}` } : {} }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (text += chunk));
      res.on('end', () =>
        resolve({
          status: res.statusCode!,
          chunked: res.headers['transfer-encoding'] === 'chunked',
          body: JSON.parse(text),
        }),
      );
    }).on('error', reject);
  });
}

const ids = (entries: readonly { id: number }[]) => entries.map((entry) => entry.id);

describe('GET /api/v1/activity', () => {
  it('answers who switched Bench A:3 last Tuesday, oldest first', async () => {
    const from = new Date(TUESDAY).toISOString();
    const until = new Date(TUESDAY + DAY - 1).toISOString();
    const answer = await fetchJson(
      `/api/v1/activity?controller=bench%20a&outlet=3&from=${from}&until=${until}`,
    );
    expect(answer.status).toBe(200);
    const expected = seeded.filter(
      (e) => e.controllerId === benchA && e.outlet === 3 && e.time >= TUESDAY && e.time < TUESDAY + DAY,
    );
    expect(expected.length).toBeGreaterThan(5);
    expect(ids(answer.body as ActivityEntry[])).toEqual(ids(expected));
    expect((answer.body as ActivityEntry[])[0]).toMatchObject({ controllerName: 'Bench A', outlet: 3 });
  });

  it('streams the whole log page by page, and the newest few with limit', async () => {
    const all = await fetchJson('/api/v1/activity');
    expect(all.chunked).toBe(true);
    // What the store holds: the seeded weeks and the Core's own entries (adding Bench A).
    const body = all.body as ActivityEntry[];
    expect(ids(body)).toEqual([...ids(body)].sort((a, b) => a - b));
    expect(ids(body.filter((e) => e.source === 'json-api'))).toEqual(ids(seeded));
    const newest = await fetchJson('/api/v1/activity?limit=3&person=ALICE');
    expect(ids(newest.body as ActivityEntry[])).toEqual(
      ids(seeded.filter((e) => e.who === 'alice').slice(-3)),
    );
  });

  it('is for token holders, and says what is wrong with a parameter', async () => {
    expect((await fetchJson('/api/v1/activity', null)).status).toBe(401);
    const bad = await fetchJson('/api/v1/activity?from=last-tuesday');
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({
      error: { code: 'BAD_INPUT', message: expect.stringMatching(/^from="last-tuesday" is not a time/) },
    });
    const unknown = await fetchJson('/api/v1/activity?since=1');
    expect(unknown.body).toMatchObject({
      error: { message: expect.stringContaining('takes from, until, controller') },
    });
  });
});
