import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { controllerSummary, testCore, type TestCore } from '../web/test-core';
import { assertRendererBuilt, launchBrowser, startWebApp, type BrowserSession, type WebApp } from './harness';
import { eventually, openApp } from './ui';

/**
 * Issue 12 items 2 and 3 in Chromium: the token lives in the tab, not in a cookie; the page's socket
 * comes back by itself after the shell restarts; and the page may connect to its own socket only.
 * The tests share one tab and run in order (the restart test replaces the shell the others use).
 */
describe('the web shell token in Chromium', () => {
  let core: TestCore;
  let app: WebApp;
  let browser: BrowserSession;

  beforeAll(async () => {
    assertRendererBuilt();
    core = testCore({ controllers: [controllerSummary('c1', 'Bench A', 0)] });
    app = await startWebApp({ core });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await core?.dispose();
  });

  it('takes the token out of the address into the tab, sets no cookie, and survives a reload', async () => {
    const { page } = browser;
    await openApp(page, app.url);
    expect(page.url()).toBe(`${app.origin}/#/local/overview`);
    expect(await browser.context.cookies()).toEqual([]);
    expect(await page.evaluate(() => sessionStorage.getItem('plugboard.token'))).toBe(app.token);
    await page.reload();
    expect(page.url()).toBe(`${app.origin}/#/local/overview`);
    expect(await page.evaluate(() => window.plugboard.app.info({}))).toMatchObject({ ok: true });
  });

  it('answers BAD_INPUT for an input too large to send, and keeps its socket', async () => {
    const { page } = browser;
    const [big, after] = await page.evaluate(async () => {
      const input = { name: 'x'.repeat(2 * 1024 * 1024), url: 'http://127.0.0.1:9', auth: { kind: 'none' } };
      const big = await window.plugboard.controllers.add(input as never);
      return [big, await window.plugboard.app.info({})];
    });
    expect(big).toMatchObject({
      ok: false,
      error: { code: 'BAD_INPUT', message: expect.stringMatching(/too large/) },
    });
    expect(after).toMatchObject({ ok: true });
  });

  it('may open a WebSocket to its own shell only', async () => {
    const other = new WebSocketServer({ host: '127.0.0.1', port: 0 });
    await new Promise((done) => other.once('listening', done));
    let reached = 0;
    other.on('connection', (socket) => {
      reached++;
      socket.close();
    });
    try {
      const port = (other.address() as { port: number }).port;
      const outcome = await browser.page.evaluate(async (url) => {
        const violation = new Promise<string>((done) =>
          document.addEventListener('securitypolicyviolation', (event) => done(event.violatedDirective), {
            once: true,
          }),
        );
        try {
          const socket = new WebSocket(url);
          await new Promise((done) => {
            socket.onerror = done;
            socket.onopen = done;
          });
        } catch {
          // Some browsers refuse in the constructor.
        }
        return violation;
      }, `ws://127.0.0.1:${port}/`);
      expect(outcome).toBe('connect-src');
      expect(reached).toBe(0);
    } finally {
      await new Promise((done) => other.close(done));
    }
  });

  it('reconnects by itself when the shell comes back, and the window works again', async () => {
    const { page } = browser;
    const { port } = new URL(app.origin);
    await app.close();
    await eventually(() => page.evaluate(() => window.plugboard.app.info({}).then((r) => r.ok))).toBe(false);
    // The same shell started again where it was (what a restart with the same token looks like).
    app = await startWebApp({ core, port: Number(port), token: app.token });
    await eventually(() => page.evaluate(() => window.plugboard.app.info({}).then((r) => r.ok))).toBe(true);
    // Events flow again over the new socket.
    await page.evaluate(() => {
      (window as unknown as { renamed: unknown[] }).renamed = [];
      window.plugboard.on('controllers/changed', (list) =>
        (window as unknown as { renamed: unknown[] }).renamed.push(list[0]?.name),
      );
    });
    core.emit('controllers/changed', [{ ...controllerSummary('c1', 'Bench B', 0) }]);
    await eventually(() =>
      page.evaluate(() => (window as unknown as { renamed: unknown[] }).renamed),
    ).toContain('Bench B'); // the catch-up snapshot may deliver "Bench A" first
  });
});
