/**
 * The lab window's sign-in page script (page/sign-in.ts, as the build bundles it), run on its own with a
 * stand-in page: a password sign-in keeps the session in the tab and returns to the window's place; the
 * identity provider's button appears only when `/api/v1/status` names one, and starts with the S256
 * challenge of a verifier kept in the tab; a `#oidc=<code>` the service's callback left is taken out of
 * the address before anything is sent, and exchanged with that verifier for a session kept the same
 * way; a `#oidc-error=<sentence>` is shown; /sign-out forgets the session before it asks the service to
 * end it. The e2e tests run both paths in Chromium against a real service (lab-window.test.ts) and a
 * real OpenID provider (lab-oidc.test.ts).
 */
import { createHash } from 'node:crypto';
import { runInNewContext } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSignInScript } from '../../electron.vite.config';
import { RETURN_KEY, SESSION_KEY, VERIFIER_KEY } from '../../src-main/web/page/page-terms';

let script: string;
beforeAll(async () => {
  script = await buildSignInScript();
});

interface Element {
  hidden: boolean;
  href?: string;
  textContent: string;
  value: string;
  listeners: Map<string, (event: { preventDefault(): void }) => void>;
  addEventListener(type: string, listener: (event: { preventDefault(): void }) => void): void;
}

function element(hidden = false): Element {
  const listeners = new Map<string, (event: { preventDefault(): void }) => void>();
  return {
    hidden,
    textContent: '',
    value: '',
    listeners,
    addEventListener: (type, listener) => listeners.set(type, listener),
  };
}

type Answer = { status: number; body: unknown };

function signInPage(options: {
  pathname?: string;
  hash?: string;
  stored?: Record<string, string>;
  answers: Record<string, Answer>;
}) {
  const elements: Record<string, Element> = {
    problem: element(true),
    provider: element(true),
    'password-form': element(),
    name: element(),
    password: element(),
    'signing-in': element(),
    'signed-out': element(true),
    'signed-out-note': element(),
  };
  const storage = new Map(Object.entries(options.stored ?? {}));
  const sent: { path: string; method: string; body?: unknown; authorization?: string; hash: string }[] = [];
  elements.provider!.href = 'https://lab.example:8443/api/v1/oidc/start?client=web';
  const replaced: string[] = [];
  const assigned: string[] = [];
  const location = {
    pathname: options.pathname ?? '/sign-in',
    hash: options.hash ?? '',
    replace: (url: string) => replaced.push(url),
    assign: (url: string) => assigned.push(url),
  };
  const sandbox: Record<string, unknown> = {
    location,
    history: {
      state: null,
      replaceState: (_state: unknown, _title: string, url: string) => {
        location.hash = '';
        replaced.push(`history:${url}`);
      },
    },
    document: { getElementById: (id: string) => elements[id] },
    sessionStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => storage.set(key, value),
      removeItem: (key: string) => storage.delete(key),
    },
    fetch: (
      path: string,
      init: { method?: string; body?: string; headers?: Record<string, string> } = {},
    ) => {
      sent.push({
        path,
        method: init.method ?? 'GET',
        ...(init.body ? { body: JSON.parse(init.body) as unknown } : {}),
        ...(init.headers?.Authorization ? { authorization: init.headers.Authorization } : {}),
        hash: location.hash,
      });
      const answer = options.answers[path] ?? { status: 404, body: {} };
      return Promise.resolve({
        ok: answer.status < 300,
        status: answer.status,
        json: () => Promise.resolve(answer.body),
      });
    },
    console,
    crypto: globalThis.crypto,
    TextEncoder,
    btoa,
  };
  sandbox.window = sandbox;
  runInNewContext(script, sandbox);
  return { elements, storage, sent, replaced, assigned };
}

const settle = () => new Promise((done) => setTimeout(done, 0));
const SIGNED = { status: 200, body: { token: 'pbs_alice', expiresAt: 1, account: { name: 'alice' } } };

describe("the lab window's sign-in page script", () => {
  it('signs in with a password, keeps the session in the tab and goes back to the place it left', async () => {
    const page = signInPage({
      stored: { [RETURN_KEY]: '#/local/bench-a/outlets' },
      answers: { '/api/v1/status': { status: 200, body: { role: 'leader' } }, '/api/v1/sign-in': SIGNED },
    });
    await settle();
    // A service that says nothing of signIn offers the password only.
    expect(page.elements.provider!.hidden).toBe(true);
    expect(page.elements['password-form']!.hidden).toBe(false);
    page.elements.name!.value = ' alice ';
    page.elements.password!.value = 'a long enough password';
    let prevented = false;
    page.elements['password-form']!.listeners.get('submit')!({ preventDefault: () => (prevented = true) });
    await settle();
    expect(prevented).toBe(true);
    expect(page.sent.at(-1)).toMatchObject({
      path: '/api/v1/sign-in',
      method: 'POST',
      body: { name: 'alice', password: 'a long enough password' },
    });
    expect(page.storage.get(SESSION_KEY)).toBe('pbs_alice');
    expect(page.storage.has(RETURN_KEY)).toBe(false);
    expect(page.replaced).toEqual(['/#/local/bench-a/outlets']);
    expect(page.elements.password!.value).toBe('');
  });

  it("shows the service's sentence when it refuses, and keeps no session", async () => {
    const refused = {
      status: 401,
      body: {
        error: { code: 'AUTH_FAILED', message: 'The name or the password is wrong.', action: 'Check both.' },
      },
    };
    const page = signInPage({ answers: { '/api/v1/sign-in': refused } });
    page.elements['password-form']!.listeners.get('submit')!({ preventDefault: () => undefined });
    await settle();
    expect(page.elements.problem!.hidden).toBe(false);
    expect(page.elements.problem!.textContent).toBe('The name or the password is wrong. Check both.');
    expect(page.storage.has(SESSION_KEY)).toBe(false);
    expect(page.replaced).toEqual([]);
  });

  it("offers the lab's identity provider when the status names it", async () => {
    const status = { status: 200, body: { signIn: { password: false, provider: { label: 'Lab SSO' } } } };
    const page = signInPage({ answers: { '/api/v1/status': status } });
    await settle();
    expect(page.elements.provider!.hidden).toBe(false);
    expect(page.elements.provider!.textContent).toBe('Sign in with Lab SSO');
    expect(page.elements['password-form']!.hidden).toBe(true);
  });

  it("starts the provider's sign-in with the S256 challenge of a verifier kept in the tab", async () => {
    const page = signInPage({ answers: {} });
    let prevented = false;
    page.elements.provider!.listeners.get('click')!({ preventDefault: () => (prevented = true) });
    await expect.poll(() => page.assigned.length).toBe(1);
    expect(prevented).toBe(true);
    const verifier = page.storage.get(VERIFIER_KEY)!;
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    expect(page.assigned[0]).toBe(
      `https://lab.example:8443/api/v1/oidc/start?client=web&challenge=${challenge}`,
    );
    // Each start has its own verifier.
    page.elements.provider!.listeners.get('click')!({ preventDefault: () => undefined });
    await expect.poll(() => page.assigned.length).toBe(2);
    expect(page.storage.get(VERIFIER_KEY)).not.toBe(verifier);
  });

  it("takes the provider's one-time code out of the address first, then exchanges it with the tab's verifier", async () => {
    const page = signInPage({
      hash: '#oidc=one-time%2Dcode',
      stored: { [VERIFIER_KEY]: 'the-tab-verifier' },
      answers: { '/api/v1/oidc/exchange': { status: 200, body: { session: 'pbs_bob', account: {} } } },
    });
    await settle();
    expect(page.replaced[0]).toBe('history:/sign-in');
    const exchange = page.sent.find((s) => s.path === '/api/v1/oidc/exchange');
    expect(exchange).toEqual({
      path: '/api/v1/oidc/exchange',
      method: 'POST',
      body: { code: 'one-time-code', verifier: 'the-tab-verifier' },
      hash: '',
    });
    expect(page.storage.has(VERIFIER_KEY)).toBe(false);
    expect(page.storage.get(SESSION_KEY)).toBe('pbs_bob');
    expect(page.replaced.at(-1)).toBe('/');
  });

  it('exchanges a code without a verifier when the tab kept none, and takes the sign-in answer shape', async () => {
    const page = signInPage({
      hash: '#oidc=abc',
      answers: { '/api/v1/oidc/exchange': SIGNED },
    });
    await settle();
    expect(page.sent.find((s) => s.path === '/api/v1/oidc/exchange')?.body).toEqual({ code: 'abc' });
    expect(page.storage.get(SESSION_KEY)).toBe('pbs_alice');
  });

  it("shows the refusal the provider's sign-in came back with, and forgets the verifier", async () => {
    const sentence =
      'eve may not sign in to this lab: none of their groups ("visitors") is given a role here.';
    const page = signInPage({
      hash: `#oidc-error=${encodeURIComponent(sentence)}`,
      stored: { [VERIFIER_KEY]: 'the-tab-verifier' },
      answers: {},
    });
    await settle();
    expect(page.replaced).toEqual(['history:/sign-in']);
    expect(page.elements.problem!.hidden).toBe(false);
    expect(page.elements.problem!.textContent).toBe(sentence);
    expect(page.storage.has(VERIFIER_KEY)).toBe(false);
    expect(page.sent.filter((s) => s.method === 'POST')).toEqual([]);
  });

  it('signs out: forgets the session, then asks the service to end it', async () => {
    const page = signInPage({
      pathname: '/sign-out',
      stored: { [SESSION_KEY]: 'pbs_alice' },
      answers: { '/api/v1/sign-out': { status: 200, body: { signedOut: true } } },
    });
    expect(page.storage.has(SESSION_KEY)).toBe(false);
    await settle();
    expect(page.sent).toMatchObject([
      { path: '/api/v1/sign-out', method: 'POST', authorization: 'Bearer pbs_alice' },
    ]);
    expect(page.elements['signed-out']!.hidden).toBe(false);
    expect(page.elements['signed-out-note']!.textContent).toBe(
      'You are signed out: this tab forgot its session, and the lab service ended it.',
    );
  });
});
