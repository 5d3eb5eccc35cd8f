/**
 * An account changed in place while it is signed in: its session keeps working and acts with the new
 * role and scope from its next request, on the JSON API and on a remote link opened before the change;
 * and the refusals it met before are in the activity log, as the account through the JSON API.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { connectRemoteCore } from '../../src-main/link';
import type { ActivityEntry } from '../../src-preload/model';
import { FakeClock } from '../core/fake-clock';
import { addController, emulator, newCore } from '../core/harness';
import { ApiServices } from './api-services';

const PASSWORD = 'a long enough password';
let dir: string;
const services = new ApiServices();
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'plugboard-account-update-'));
});
afterEach(async () => {
  await services.close();
  await rm(dir, { recursive: true, force: true });
});

function send(origin: string, path: string, options: { token?: string; body?: unknown } = {}) {
  return new Promise<{ status: number; body: { error?: { message: string }; token?: string } }>(
    (resolve, reject) => {
      const req = request(
        new URL(path, origin),
        {
          method: options.body === undefined ? 'GET' : 'POST',
          headers: options.token ? { Authorization: `Bearer ${options.token}` } : {},
        },
        (res) => {
          let text = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (text += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
        },
      );
      req.on('error', reject);
      req.end(options.body === undefined ? undefined : JSON.stringify(options.body));
    },
  );
}

async function service() {
  const records = await services.records(dir);
  const h = newCore({ records, clock: new FakeClock(Date.UTC(2026, 10, 27, 9)) });
  const admin = h.core.handlersAs({ door: 'window', who: 'root', role: 'admin' });
  const rack7 = { kind: 'some' as const, tags: ['rack-7'], controllers: [], outlets: [] };
  await admin['accounts/add']({ name: 'bob', role: 'operator', scope: rack7, password: PASSWORD });
  await admin['accounts/add']({ name: 'ada', role: 'observer', scope: { kind: 'all' }, password: PASSWORD });
  const bench = await addController(h, await emulator({ initialStates: Array(8).fill(false) }), {
    name: 'Bench A',
  });
  const { origin } = await services.listen(h.core);
  const signIn = async (name: string) =>
    (await send(origin, '/api/v1/sign-in', { body: { name, password: PASSWORD } })).body.token!;
  return { h, admin, bench, origin, signIn };
}

describe('an account changed while signed in', () => {
  it('acts with its new scope from the next JSON API request, and its refusal before is logged', async () => {
    const { h, admin, origin, signIn } = await service();
    const token = await signIn('bob');
    const switchOn = () =>
      send(origin, '/api/v1/controllers/bench%20a/outlets/3', { token, body: { action: 'on' } });
    const before = await switchOn();
    expect(before.status).toBe(403);
    expect(before.body.error!.message).toBe(
      'bob (operator of tag rack-7) may not switch outlets: outlet 3 on Bench A is outside its scope.',
    );

    await admin['accounts/update']({ name: 'bob', scope: { kind: 'all' } });
    expect((await switchOn()).status).toBe(200);

    const log = await h.ok<ActivityEntry[]>('activity/list', { order: 'oldest' });
    const bobs = log.filter((e) => e.who === 'bob');
    expect(bobs.map((e) => [e.controllerName, e.outlet, e.source, e.action, e.result])).toEqual([
      ['the lab service', null, 'json-api', 'signed in from 127.0.0.1', 'ok'],
      ['Bench A', 3, 'json-api', 'tried to switch outlets', 'error'],
      ['Bench A', 3, 'json-api', 'on', 'ok'],
    ]);
    expect(bobs[1]!.error!.message).toBe(before.body.error!.message);
  });

  it('acts with its new role on a remote link opened before the change, without reconnecting', async () => {
    const { admin, bench, origin, signIn } = await service();
    const link = await connectRemoteCore(origin, { token: await signIn('ada') });
    try {
      const handlers = link.handlersAs({ door: 'cli', who: 'ada' });
      const input = { controllerId: bench.id, outlets: [2], on: true };
      await expect(handlers['outlets/set'](input)).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: 'ada is an observer: it may read, not switch outlets.',
      });
      await admin['accounts/update']({ name: 'ada', role: 'operator' });
      await expect(handlers['outlets/set'](input)).resolves.toBeDefined();
      await admin['accounts/update']({ name: 'ada', role: 'observer' });
      await expect(handlers['outlets/set'](input)).rejects.toMatchObject({ code: 'FORBIDDEN' });
    } finally {
      await link.close();
    }
  });
});
