/**
 * What the unit refused, in words: a change its API does not allow (405) says what was refused and what
 * to do, never "unexpected status"; a relay time the login may not read says why it is unknown.
 * @real-unit: behind the proxy, the profile's unit.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { PASSWORD, emulator } from './cli-fixtures';
import { cleanEnv, cli, errorLines } from './run-cli';

const servers: Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((done) => s.close(done))));
});

/** How the proxy answers a request instead of the emulator, or null to pass it on. */
type Refusal = (
  method: string,
  path: string,
) => { status: number; headers?: Record<string, string>; body: object } | null;

/** A unit whose firmware answers some requests otherwise: a proxy in front of the emulator. */
async function unitThatRefuses(target: string, refuse: Refusal): Promise<string> {
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const refusal = refuse(req.method ?? 'GET', decodeURIComponent(req.url ?? ''));
    if (refusal) {
      req.resume();
      res
        .writeHead(refusal.status, { 'content-type': 'application/json', ...refusal.headers })
        .end(JSON.stringify(refusal.body));
      return;
    }
    const forward = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    req.pipe(forward);
  });
  servers.push(server);
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

it('a change the unit does not allow says what it refused and what to do (not "unexpected status 405")', async () => {
  const e = await emulator();
  // The on-sequence delay is read-only on this unit: a write there is a method it does not allow.
  const url = await unitThatRefuses(e.url, (method, path) =>
    method !== 'GET' && path.includes('sequence_delay')
      ? {
          status: 405,
          headers: { allow: 'GET, HEAD' },
          body: { error: 'method_not_allowed', message: 'The sequence delay is read-only.' },
        }
      : null,
  );
  const result = await cli(['--url', url, '--password-stdin', 'relay', '--sequence-delay', '2'], {
    env: cleanEnv(),
    stdin: `${PASSWORD}\n`,
  });
  expect(result.code, result.stderr).toBe(1);
  expect(errorLines(result)).toEqual([
    expect.stringMatching(
      /refused to set the on-sequence delay: its API does not allow that change; it accepts only GET, HEAD there \(the controller says: The sequence delay is read-only\)\. .*own web page, or update the firmware\. \[BAD_INPUT\]$/,
    ),
  ]);
  expect(result.stderr).not.toMatch(/unexpected status/);
});

it('relay says why a time is unknown: a login the unit does not let read it, a firmware without it', async () => {
  const e = await emulator();
  const url = await unitThatRefuses(e.url, (method, path) => {
    if (method !== 'GET') return null;
    if (path.includes('cycle_delay'))
      return { status: 403, body: { error: 'forbidden', message: 'Administrators only.' } };
    if (path.includes('sequence_delay'))
      return { status: 404, body: { error: 'not_found', message: 'No such resource.' } };
    return null;
  });
  const result = await cli(['--url', url, '--password-stdin', 'relay'], {
    env: cleanEnv(),
    stdin: `${PASSWORD}\n`,
  });
  expect(result.code, result.stderr).toBe(0);
  expect(result.stdout).toMatch(/Cycle delay\s+unknown: this login may not read it\n/);
  expect(result.stdout).toMatch(/Sequence delay\s+unknown: this unit's firmware does not have it\n/);
});

it('users with a login that is no administrator says so and what to do (exit 4)', async () => {
  const e = await emulator();
  e.device.addUser({ name: 'bob', password: 'bob-pw-23', isAdmin: false, outletAccess: Array(8).fill(true) });
  const result = await cli(['--url', e.url, '--user', 'bob', '--password-stdin', 'users'], {
    env: cleanEnv(),
    stdin: 'bob-pw-23\n',
  });
  expect(result.code, result.stderr).toBe(4);
  expect(result.stderr).toMatch(
    /Only an administrator may read the users of 127\.0\.0\.1:\d+, and the login bob is not one\. Log in as one of the controller's administrators \(--user\)\. \[FORBIDDEN\]/,
  );
});
