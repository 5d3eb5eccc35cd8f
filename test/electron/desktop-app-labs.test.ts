/**
 * The built desktop app under the Electron stand-in as a desk: it attaches to a lab service (in this
 * process, over HTTPS with a pinned certificate, accounts in its lab store) through
 * `window.plugboard.labs`, signs in (the session goes to the app's keychain, never to the page), makes a
 * call on the lab's Core as the account, and its tray lists a lab favourite, switched through the desk as
 * the tray.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LabSummary } from '../../src-preload/model';
import { cleanUp } from '../core/harness';
import { PASSWORD, startLab, type Cleanup, type Lab } from '../desk/lab-fixture';
import type { MenuItemView } from './standin/recorders';
import { APP_TIMEOUT, type DesktopApp, eventually, startDesktopApp, trayItem, until } from './desktop-app';

describe('The desktop app attached to a lab', () => {
  const cleanups: Cleanup[] = [];
  let home: string;
  let lab: Lab;
  let app: DesktopApp;
  let page: Page;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'plugboard-desktop-labs-'));
    lab = await startLab(cleanups, [{ name: 'ada', role: 'operator' }]);
    lab.emu.device.setOutlet(2, { name: 'Scope' });
    app = await startDesktopApp({ home, configDir: join(home, 'plugboard-config') });
    page = await app.page();
  });

  afterAll(async () => {
    await app?.close();
    for (const clean of cleanups.splice(0).reverse()) await clean();
    await cleanUp();
    if (home) await rm(home, { recursive: true, force: true });
  });

  /** A call through the page's `window.plugboard`, as the window makes it; its value, or a failed test. */
  async function call<T>(domain: string, action: string, input: unknown): Promise<T> {
    const result = await page.evaluate(
      ([d, a, i]) =>
        (window.plugboard as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[
          d as string
        ]![a as string]!(i),
      [domain, action, input] as const,
    );
    const answer = result as { ok: boolean; value?: T; error?: { message: string } };
    if (!answer.ok) throw new Error(`${domain}.${action}: ${answer.error?.message}`);
    return answer.value as T;
  }

  it('adds the lab with its pin, signs in, and calls the lab’s Core as the account', async () => {
    const added = await call<LabSummary>('labs', 'add', {
      addresses: [lab.origin],
      fingerprints: [lab.fingerprint],
    });
    expect(added).toMatchObject({ status: 'signed-out', addresses: [lab.origin] });
    const signed = await call<LabSummary>('labs', 'signIn', {
      lab: added.id,
      name: 'ada',
      password: PASSWORD,
    });
    expect(signed).toMatchObject({ status: 'online', account: { who: 'ada' } });
    expect(JSON.stringify(signed)).not.toMatch(/token/i);

    await call('labs', 'call', {
      lab: added.id,
      name: 'outlets/set',
      input: { controllerId: lab.controllerId, outlets: [3], on: true },
    });
    await eventually(() => lab.emu.device.outlet(2).physicalState).toBe(true);
    expect(lab.h.activity().findLast((e) => e.outlet === 3)).toMatchObject({ source: 'window', who: 'ada' });
  });

  it('lists a lab favourite in the tray and switches it through the desk as the tray', async () => {
    const [summary] = await call<LabSummary[]>('labs', 'list', {});
    await call('settings', 'set', {
      trayFavourites: [{ lab: summary!.id, controllerId: lab.controllerId, outlet: 3 }],
    });
    const item = await until(async () => {
      const menu = ((await app.state()).tray?.menu ?? []) as MenuItemView[];
      const scope = trayItem(menu, /Scope/);
      return scope?.enabled && scope.checked ? scope : null;
    }, 'an enabled, checked tray item for the lab’s Scope outlet');
    expect(item.label).toContain(summary!.name);
    await app.clickTray(item.id!);
    await eventually(() => lab.emu.device.outlet(2).physicalState, APP_TIMEOUT).toBe(false);
    await eventually(
      () => lab.h.activity().findLast((e) => e.outlet === 3 && e.action === 'off') ?? null,
    ).toMatchObject({ source: 'tray', who: 'ada' });
  });
});
