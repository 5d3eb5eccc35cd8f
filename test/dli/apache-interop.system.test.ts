/**
 * Interop with a digest server we did not write: Debian's Apache httpd with mod_auth_digest, its
 * nonce-count check switched on. Proves RFC 2617 handling (qop=auth, hex nonce counts), nonce reuse (one
 * 401 for many requests), stale-nonce re-challenge and AUTH_FAILED. (Apache 2.4.71 no longer offers the RFC
 * 2069 form real units use; the emulator tests cover that.)
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DliClient } from '../../src-main/dli/client';
import { PlugboardError } from '../../src-main/shared/errors';
import { startApache, type RunningApache } from './apache-server';
import { FIXTURE_FILES } from './fixtures';

const REALM = 'DLI LPC92712030336';
let apache: RunningApache | null = null;
let client: DliClient | null = null;

afterEach(async () => {
  await client?.close();
  await apache?.close();
  client = null;
  apache = null;
});

async function start(nonceLifetime?: number): Promise<RunningApache> {
  apache = await startApache({
    realm: REALM,
    user: 'admin',
    password: '1234',
    nonceLifetime,
    files: FIXTURE_FILES,
  });
  return apache;
}

/**
 * The statuses Apache logged for the client's requests. Apache writes a request's line after it sent the
 * answer, so the last lines can lag behind the client on a busy machine: wait until every request the
 * client sent (`client.stats.requests`, challenges included) is in the log.
 */
async function statuses(server: RunningApache): Promise<string[]> {
  const sent = client!.stats.requests;
  const lines = await vi.waitFor(
    async () => {
      const logged = await server.log();
      if (logged.length < sent) throw new Error(`Apache logged ${logged.length} of ${sent} requests so far`);
      return logged;
    },
    { timeout: 10_000, interval: 20 },
  );
  return lines.map((line) => line.split(' ').at(-1)!);
}

describe('Apache mod_auth_digest (qop=auth)', () => {
  it('describes the controller and reuses one nonce for many requests', async () => {
    const server = await start();
    client = new DliClient({
      url: server.url,
      credentials: { kind: 'digest', user: 'admin', password: '1234' },
    });
    const description = await client.describe();
    expect(description.identity).toMatchObject({
      model: 'LPC9',
      serial: 'LPC92712030336',
      firmware: '1.12.14.0',
      hostname: 'lpc9-bench',
    });
    expect(description.capabilities).toMatchObject({
      outletCount: 8,
      isAdmin: true,
      reboot: true,
      meters: true,
    });
    expect(description.outlets[5]).toMatchObject({ number: 6, locked: true });
    // Twenty requests on one nonce: Apache's nc check refuses any count that does not increase.
    for (let i = 0; i < 20; i++) {
      const outlets = await client.outlets.list();
      expect(outlets).toHaveLength(8);
    }
    const log = await statuses(server);
    expect(log.filter((s) => s === '401')).toEqual(['401']);
    expect(log[0]).toBe('401');
    expect(log.slice(1).every((s) => s === '200')).toBe(true);
    expect(client.stats).toEqual({ requests: log.length, challenges: 1 });
  });

  it('fails with AUTH_FAILED after exactly one re-challenge for a wrong password', async () => {
    const server = await start();
    client = new DliClient({
      url: server.url,
      name: 'Bench A',
      credentials: { kind: 'digest', user: 'admin', password: 'wrong' },
    });
    const error = await client.outlets.list().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PlugboardError);
    expect(error).toMatchObject({ code: 'AUTH_FAILED' });
    expect((error as Error).message).toContain('Bench A');
    expect((error as Error).message).not.toContain('wrong');
    expect(await statuses(server)).toEqual(['401', '401']);
  });
});

it('answers a stale nonce with one new challenge and carries on', async () => {
  const server = await start(1);
  client = new DliClient({
    url: server.url,
    credentials: { kind: 'digest', user: 'admin', password: '1234' },
  });
  expect(await client.system.tree('', 1)).toMatchObject({ path: '' });
  let calls = 1;
  // Ask again until Apache finds the nonce (1 s) stale and challenges anew: that request is answered
  // after exactly one retry.
  await vi.waitFor(
    async () => {
      calls++;
      expect(await client!.outlets.list()).toHaveLength(8);
      expect((await statuses(server)).slice(-2)).toEqual(['401', '200']);
    },
    { timeout: 15_000, interval: 100 },
  );
  // Every request succeeded, and no challenge was answered by more than one retry.
  const log = await statuses(server);
  expect(log.filter((s) => s === '200')).toHaveLength(calls);
  expect(log.join(' ')).not.toContain('401 401');
});

it('serializes concurrent calls, so nonce counts reach Apache in order', async () => {
  const server = await start();
  client = new DliClient({
    url: server.url,
    credentials: { kind: 'digest', user: 'admin', password: '1234' },
  });
  const results = await Promise.all(Array.from({ length: 12 }, () => client!.outlets.list()));
  expect(results.every((outlets) => outlets.length === 8)).toBe(true);
  // Out-of-order counts would be refused by the nc check; only the first request is challenged.
  const log = await statuses(server);
  expect(log.filter((s) => s === '401')).toEqual(['401']);
  expect(log).toHaveLength(13);
});
