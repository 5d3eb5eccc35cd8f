/**
 * A desk (or the CLI) signing in through a REAL OpenID provider to the built `plugboard serve --oidc-*`
 * (oidc-lab.ts), Chromium playing the system browser: the groups mapped to roles and scopes that the Core
 * then enforces on the remote link, a person in no mapped group refused with a sentence (and in the
 * activity log), a one-time code that works once, a desk's code that needs its verifier, a redirect that
 * must be loopback, and a renamed person keeping their account.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { connectRemoteCore } from '../../src-main/link';
import {
  capture,
  challengeOf,
  deskSignIn,
  freshPage,
  lab,
  post,
  throughProvider,
  useOidcLab,
} from './oidc-lab';

useOidcLab();

describe('signing in through the identity provider', () => {
  it('the status says how to sign in, before anyone has', async () => {
    const status = (await (await fetch(`${lab.api}/api/v1/status`)).json()) as { signIn: unknown };
    expect(status.signIn).toEqual({ password: true, provider: { label: 'Lab SSO' } });
  });

  it('a desk signs in as the role its groups map to, and the Core holds it to its scope', async () => {
    const { signed, tab } = await deskSignIn('bob');
    const bob = await signed;
    expect(bob.account).toEqual({
      name: 'bob',
      displayName: 'Bob',
      role: 'operator',
      scope: { kind: 'some', tags: ['rack-7'], controllers: [], outlets: [] },
    });
    expect(await tab()).toBe(
      'Signed in\n\nSigned in to Plugboard as Bob (operator). You may close this tab.',
    );
    const link = await connectRemoteCore(lab.api, { token: bob.session });
    try {
      const handlers = link.handlersAs({ door: 'cli', who: 'someone else' });
      await expect(
        handlers['outlets/set']({ controllerId: lab.bench.controller.id, outlets: [3], on: false }),
      ).rejects.toMatchObject({
        code: 'FORBIDDEN',
        message: expect.stringMatching(
          /^bob \(operator of tag rack-7\) may not switch outlets: outlet 3 on bench-a is outside its scope\./,
        ),
      });
    } finally {
      await link.close();
    }
    expect(lab.bench.emu.device.outlet(2).state).toBe(true);
  });

  it('the highest role among the groups wins, over the union of its scopes; the email names a person without a user name', async () => {
    const carol = await (await deskSignIn('carol')).signed;
    expect(carol.account).toMatchObject({
      name: 'carol',
      role: 'operator',
      scope: { kind: 'some', tags: ['rack-7'], controllers: [lab.bench.controller.id], outlets: [] },
    });
    const link = await connectRemoteCore(lab.api, { token: carol.session });
    try {
      const result = await link
        .handlersAs({ door: 'cli', who: 'carol' })
        ['outlets/set']({ controllerId: lab.bench.controller.id, outlets: [3], on: false });
      expect(result.failed).toEqual([]);
    } finally {
      await link.close();
    }
    expect(lab.bench.emu.device.outlet(2).state).toBe(false);
  });

  it('a person in no mapped group is refused with a sentence, in the tab and in the activity log', async () => {
    const { signed, tab } = await deskSignIn('eve');
    const sentence =
      'eve may not sign in to this lab: none of their groups ("visitors") is given a role here.';
    await expect(signed).rejects.toMatchObject({
      code: 'AUTH_FAILED',
      message: expect.stringContaining(sentence),
    });
    expect(await tab()).toMatch(/^Not signed in\n\neve may not sign in to this lab: /);
    const ada = await (await deskSignIn('ada')).signed;
    expect(ada.account.role).toBe('admin');
    const log = await fetch(`${lab.api}/api/v1/activity?person=eve`, {
      headers: { Authorization: `Bearer ${ada.session}` },
    });
    const entries = (await log.json()) as {
      action: string;
      who: string;
      error: { message: string } | null;
    }[];
    expect(entries).toContainEqual(
      expect.objectContaining({
        action: 'sign-in refused from 127.0.0.1',
        who: 'eve',
        error: expect.objectContaining({ message: sentence }),
      }),
    );
  });

  it('a one-time code works once: replayed, it is refused', async () => {
    const { signed, returned } = await deskSignIn('ada');
    await signed;
    const code = (await returned).searchParams.get('code')!;
    const replay = await post('/api/v1/oidc/exchange', {
      code,
      verifier: randomBytes(32).toString('base64url'),
    });
    expect(replay.status).toBe(401);
    expect(replay.json.error?.message).toBe(
      'This sign-in code is unknown, used already or expired (a code is good once, for a minute).',
    );
  });

  it("a desk's code needs the desk's verifier, and is spent by a wrong one", async () => {
    const verifier = randomBytes(32).toString('base64url');
    const receiver = await capture();
    try {
      const start = `${lab.api}/api/v1/oidc/start?client=desk&redirect=${encodeURIComponent(receiver.url)}&challenge=${challengeOf(verifier)}`;
      await throughProvider(await freshPage(), 'ada', start);
      const code = (await receiver.arrived).get('code')!;
      const without = await post('/api/v1/oidc/exchange', { code });
      expect(without.status).toBe(401);
      expect(without.json.error?.message).toMatch(
        /^This sign-in code was given to a desk, and the verifier sent with it is not that desk's/,
      );
      // Spent by the wrong try: the right verifier comes too late.
      expect((await post('/api/v1/oidc/exchange', { code, verifier })).status).toBe(401);
    } finally {
      receiver.server.close();
    }
  });

  it("a desk's redirect must be a loopback receiver", async () => {
    const challenge = challengeOf('v'.repeat(43));
    for (const redirect of [
      'http://lab-desk.example:8080/back',
      'https://127.0.0.1:8080/back',
      'http://localhost:8080/back',
      'http://127.0.0.1/back',
      'http://user@127.0.0.1:8080/back',
    ]) {
      const answer = await fetch(
        `${lab.api}/api/v1/oidc/start?client=desk&redirect=${encodeURIComponent(redirect)}&challenge=${challenge}`,
        { redirect: 'manual' },
      );
      expect(answer.status, redirect).toBe(400);
      expect(((await answer.json()) as { error: { message: string } }).error.message).toMatch(
        /^Refused the redirect .*: a desk's sign-in comes back only to a receiver on its own machine/,
      );
    }
  });

  it('a person renamed at the provider keeps their account, with the new display name', async () => {
    lab.provider.people.set('bob', {
      preferred_username: 'robert',
      name: 'Robert B.',
      groups: ['lab-admins'],
    });
    const robert = await (await deskSignIn('bob')).signed;
    expect(robert.account).toMatchObject({ name: 'bob', displayName: 'Robert B.', role: 'admin' });
  });
});
