/**
 * Signing in to the lab's window through a REAL OpenID provider, in Chromium (lab-oidc.ts): the built
 * `plugboard serve --web-window --oidc-*` over HTTPS and oidc-provider on 127.0.0.1. A tab without a
 * session goes to the sign-in page, "Sign in with <label>" takes it to the provider's login and consent,
 * and it comes back signed in as the account the provider's groups map to: the window, who it is, a switch
 * allowed inside the mapped tag and refused outside it in the Core's sentence. A person in no mapped
 * group comes back to the sign-in page with the refusal's sentence. The page binds its sign-in to its
 * tab (a PKCE verifier kept in sessionStorage, its challenge given at the start), so a code that lands
 * in another tab signs nobody in there.
 *
 * Where the session may be: in the tab's sessionStorage only; no cookie from the service's origin (the
 * provider's own cookies, on its origin, are its business), and never in an address the browser asks
 * the service for. The one-time code IS in an address by design: the service's callback sends the
 * browser to `/sign-in#oidc=<code>`; as a fragment it never reaches the service (or a log) again, the
 * page takes it out of the address before exchanging it, and it is good once, for a minute.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VERIFIER_KEY } from '../../src-main/web/page/page-terms';
import { cleanUpServe } from '../serve/built-serve';
import { challengeOf } from '../serve/oidc-lab';
import {
  atProvider,
  newPerson,
  startOidcWindowLab,
  toProvider,
  type OidcWindowLab,
  type Person,
} from './lab-oidc';
import { UI_TIMEOUT, waitForStatus } from './ui';

const SESSION_KEY = 'plugboard.session';

describe('the lab window signing in through the OpenID provider, in Chromium', () => {
  let lab: OidcWindowLab;
  const people: Person[] = [];

  beforeAll(async () => {
    lab = await startOidcWindowLab();
  }, 120_000);

  afterAll(async () => {
    for (const person of people) await person.context.close().catch(() => undefined);
    await lab?.browser.close();
    await lab?.provider.close();
    await cleanUpServe();
  });

  async function person(): Promise<Person> {
    const made = await newPerson(lab);
    people.push(made);
    return made;
  }

  const stored = (p: Person, key: string) => p.page.evaluate((k) => sessionStorage.getItem(k), key);
  const alert = (p: Person) => p.page.getByRole('alert').textContent();

  it('comes back signed in, works inside its tag and is refused outside it; the session stays in the tab', async () => {
    const carol = await person();
    const { page } = carol;
    const origin = lab.origin;
    const started = page.waitForRequest((r) => r.url().startsWith(`${origin}/api/v1/oidc/start?`));
    const called = page.waitForResponse((r) => r.url().startsWith(`${origin}/api/v1/oidc/callback?`));
    const exchanged = page.waitForRequest((r) => r.url() === `${origin}/api/v1/oidc/exchange`);
    await page.goto(`${origin}/`);
    await page.waitForURL(`${origin}/sign-in`, { timeout: UI_TIMEOUT });
    await toProvider(lab, page);
    await atProvider(lab, page, 'carol');
    await page.waitForURL(`${origin}/#/local/overview`, { timeout: UI_TIMEOUT });

    // The start carried the challenge of the verifier the exchange sent, and the tab forgot it after.
    const challenge = new URL((await started).url()).searchParams;
    expect(challenge.get('client')).toBe('web');
    const body = JSON.parse((await exchanged).postData()!) as { code: string; verifier: string };
    expect(challengeOf(body.verifier)).toBe(challenge.get('challenge'));
    expect(await stored(carol, VERIFIER_KEY)).toBeNull();
    // The one-time code went to the page as a fragment of the callback's redirect, by design.
    expect((await called).headers()['location']).toBe(`/sign-in#oidc=${body.code}`);

    await waitForStatus(page, 'bench-a', 'online', 30_000);
    await waitForStatus(page, 'bench-b', 'online', 30_000);
    await page
      .getByRole('banner')
      .getByText('Signed in as Carol Jones (operator)')
      .waitFor({ timeout: UI_TIMEOUT });
    const set = (controllerId: string) =>
      page.evaluate(
        (id) => window.plugboard.outlets.set({ controllerId: id, outlets: [1], on: false }),
        controllerId,
      );
    expect(await set(lab.controllers.rack7.id)).toMatchObject({ ok: true, value: { failed: [] } });
    const refused = await set(lab.controllers.other.id);
    const error = refused.ok ? refused.value.failed[0]?.error : refused.error;
    expect(error).toMatchObject({
      code: 'FORBIDDEN',
      message:
        'carol (operator of tag rack-7) may not switch outlets: outlet 1 on bench-b is outside its scope.',
      action: "Ask the service's administrator to widen its scope, or use a client whose scope reaches it.",
    });

    const session = (await stored(carol, SESSION_KEY))!;
    expect(session).toMatch(/^pbs_/);
    expect(carol.cookiesSet).toEqual([]);
    expect(await page.evaluate(() => document.cookie)).toBe('');
    for (const cookie of await carol.context.cookies()) expect(cookie.value).not.toContain(session);
    expect(carol.requested.length).toBeGreaterThan(3);
    expect(carol.requested.filter((url) => url.includes(session))).toEqual([]);
    // The code only ever in the fragment (never sent), and no longer in the tab's address.
    expect(carol.requested.filter((url) => url.split('#')[0]!.includes(body.code))).toEqual([]);
    expect(page.url()).not.toContain(body.code);
    expect(lab.service.stdout() + lab.service.stderr()).not.toContain(session);
    // Good once: the same code and verifier again sign nobody in.
    const replay = await page.evaluate(
      (sent) =>
        fetch('/api/v1/oidc/exchange', { method: 'POST', body: JSON.stringify(sent) }).then((r) => r.status),
      body,
    );
    expect(replay).toBe(401);
  });

  it('a person in no mapped group comes back to the sign-in page with the refusal', async () => {
    const eve = await person();
    await eve.page.goto(`${lab.origin}/`);
    await eve.page.waitForURL(`${lab.origin}/sign-in`, { timeout: UI_TIMEOUT });
    await toProvider(lab, eve.page);
    await atProvider(lab, eve.page, 'eve');
    await expect
      .poll(() => alert(eve), { timeout: UI_TIMEOUT })
      .toMatch(
        /^eve may not sign in to this lab: none of their groups \("visitors"\) is given a role here\./,
      );
    expect(eve.page.url()).toBe(`${lab.origin}/sign-in`);
    expect(await stored(eve, SESSION_KEY)).toBeNull();
    expect(await eve.page.getByRole('link', { name: 'Sign in with Lab SSO' }).isVisible()).toBe(true);
  });

  it('a code that lands in another tab (another verifier) is refused there, and is spent', async () => {
    const first = await person();
    const origin = lab.origin;
    await first.page.goto(`${origin}/sign-in`);
    await toProvider(lab, first.page);
    // The first tab's exchange never reaches the service: its code and verifier are taken on the way.
    let take!: (sent: { code: string; verifier: string }) => void;
    const held = new Promise<{ code: string; verifier: string }>((resolve) => (take = resolve));
    await first.context.route(`${origin}/api/v1/oidc/exchange`, async (route) => {
      take(route.request().postDataJSON() as { code: string; verifier: string });
      await route.abort();
    });
    await atProvider(lab, first.page, 'dan');
    const { code, verifier } = await held;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);

    // The other tab started a sign-in of its own (its own verifier), and the code is slipped into it.
    const other = await person();
    await other.page.goto(`${origin}/sign-in`);
    await toProvider(lab, other.page);
    await other.page.goto(`${origin}/sign-in#oidc=${code}`);
    await expect
      .poll(() => alert(other), { timeout: UI_TIMEOUT })
      .toBe(
        "This sign-in code was given to a page, and the verifier sent with it is not that page's: the code is now spent. Sign in through the identity provider again, from the page itself.",
      );
    expect(await stored(other, SESSION_KEY)).toBeNull();

    // The first tab's own verifier comes too late: the code is spent.
    await first.context.unroute(`${origin}/api/v1/oidc/exchange`);
    const late = await first.page.evaluate(
      (sent) =>
        fetch('/api/v1/oidc/exchange', { method: 'POST', body: JSON.stringify(sent) }).then((r) => r.json()),
      { code, verifier },
    );
    expect(late).toMatchObject({
      error: { message: expect.stringMatching(/^This sign-in code is unknown, used already or expired/) },
    });
  });
});
