/**
 * Issue 16 item 14 in Chromium: the Add form says a wrong password once, under its button, which stays
 * on screen; a web server answering 403 is "not a controller", not a permissions problem.
 */
import { createServer, type Server } from 'node:http';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectAccessible } from './a11y';
import { saveScreenshot, type BrowserSession } from './harness';
import { startLab, type Lab } from './lab';
import { eventually } from './ui';

function form(page: Page) {
  return page.getByRole('form', { name: 'By address' });
}

async function tryAdd(page: Page, address: string, password: string) {
  const add = form(page);
  await add.getByRole('textbox', { name: 'Address' }).fill(address);
  await add.getByLabel('Password', { exact: true }).fill(password);
  await add.getByRole('button', { name: 'Add this controller' }).click();
}

describe('The Add form’s errors in Chromium', () => {
  let lab: Lab;
  let browser: BrowserSession;
  let web: Server;

  beforeAll(async () => {
    lab = await startLab();
    browser = await lab.openWindow();
    web = createServer((_req, res) => {
      res.writeHead(403, { 'content-type': 'text/html' });
      res.end('<html><head><title>403 Forbidden</title></head><body>nginx</body></html>');
    });
    await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
    // A short window: the button must stay visible under the error.
    await browser.page.setViewportSize({ width: 1000, height: 700 });
  });
  afterAll(async () => {
    await lab?.close();
    await new Promise((resolve) => web?.close(resolve));
  });

  it('says a wrong password once, under the button, which stays in view', async () => {
    const { page } = browser;
    const bench = await lab.emulator({ name: 'Bench A' });
    await page.getByRole('button', { name: 'Add controller' }).click();
    const button = form(page).getByRole('button', { name: 'Add this controller' });
    // Where the button is on the page (not the viewport, which scrolls as fields are filled).
    const top = () => button.evaluate((el) => el.getBoundingClientRect().top + window.scrollY);
    const before = await top();
    await tryAdd(page, bench.url, 'not-the-password');
    const alert = form(page).getByRole('alert');
    await eventually(() => alert.getAttribute('data-code'), 30_000).toBe('AUTH_FAILED');
    const text = (await alert.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('Wrong user name or password for');
    expect(text.match(/password/gi)).toHaveLength(2);
    expect(await top()).toBe(before);
    // Still in view where it was clicked: the error opened below it.
    const box = (await button.boundingBox())!;
    expect(box.y + box.height).toBeLessThanOrEqual(700);
    await saveScreenshot(page, 'add-form-wrong-password');
    await expectAccessible(page, 'Add form, wrong password');
  });

  it('calls a web server that answers 403 "not a controller"', async () => {
    const { page } = browser;
    const port = (web.address() as { port: number }).port;
    await tryAdd(page, `127.0.0.1:${port}`, '1234');
    const alert = form(page).getByRole('alert');
    await eventually(() => alert.getAttribute('data-code'), 30_000).toBe('NOT_A_CONTROLLER');
    const text = await alert.innerText();
    expect(text).toContain('not a power controller');
    expect(text).not.toMatch(/permission|not allowed|administrator/i);
    expect(await lab.core.handlers['controllers/list']({})).toEqual([]);
  });
});
