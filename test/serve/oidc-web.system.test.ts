/**
 * The web window's side of signing in through a REAL OpenID provider (oidc-lab.ts), at the HTTP level
 * (the sign-in page is the web window's): the browser is sent back to `/sign-in#oidc=<code>`, which the
 * exchange turns into a session; a page that gave a challenge binds its code to its tab; a refusal comes
 * back as `#oidc-error=<sentence>`.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { challengeOf, freshPage, lab, post, throughProvider, useOidcLab } from './oidc-lab';

useOidcLab();

describe('the web window signing in through the identity provider', () => {
  it('the web window is sent back to /sign-in#oidc=<code>, which the page exchanges for the session', async () => {
    const page = await freshPage();
    await throughProvider(page, 'carol', `${lab.api}/api/v1/oidc/start?client=web`);
    const back = new URL(page.url());
    expect(back.origin + back.pathname).toBe(`${lab.api}/sign-in`);
    const code = /^#oidc=([A-Za-z0-9_-]+)$/.exec(back.hash)![1]!;
    const answer = await post('/api/v1/oidc/exchange', { code });
    expect(answer.status).toBe(200);
    expect(answer.json).toMatchObject({ token: expect.stringMatching(/^pbs_/), account: { name: 'carol' } });
    const controllers = await fetch(`${lab.api}/api/v1/controllers`, {
      headers: { Authorization: `Bearer ${answer.json.token!}` },
    });
    expect(controllers.status).toBe(200);
  });

  it('a web page that gave a challenge gets a code only its verifier exchanges', async () => {
    const verifier = randomBytes(32).toString('base64url');
    const page = await freshPage();
    await throughProvider(
      page,
      'ada',
      `${lab.api}/api/v1/oidc/start?client=web&challenge=${challengeOf(verifier)}`,
    );
    const code = /^#oidc=([A-Za-z0-9_-]+)$/.exec(new URL(page.url()).hash)![1]!;
    const slipped = await post('/api/v1/oidc/exchange', { code });
    expect(slipped.status).toBe(401);
    expect(slipped.json.error?.message).toMatch(/^This sign-in code was given to a page, and the verifier/);
    const second = await freshPage();
    await throughProvider(
      second,
      'ada',
      `${lab.api}/api/v1/oidc/start?client=web&challenge=${challengeOf(verifier)}`,
    );
    const again = /^#oidc=([A-Za-z0-9_-]+)$/.exec(new URL(second.url()).hash)![1]!;
    expect((await post('/api/v1/oidc/exchange', { code: again, verifier })).status).toBe(200);
  });

  it('a refusal sends the web window back to /sign-in#oidc-error=<sentence>', async () => {
    const page = await freshPage();
    await throughProvider(page, 'eve', `${lab.api}/api/v1/oidc/start?client=web`);
    const hash = new URL(page.url()).hash;
    expect(decodeURIComponent(hash.replace(/^#oidc-error=/, ''))).toMatch(
      /^eve may not sign in to this lab: none of their groups \("visitors"\) is given a role here\./,
    );
  });
});
