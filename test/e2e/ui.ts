/**
 * Finding things in the window the way a person (or a screen reader) does: by role and accessible
 * name. Waits are web-first: poll what the page shows, with generous limits for a loaded machine.
 */
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

/** How long the UI may take to show what the controller did (polls, a loaded 2-core machine). */
export const UI_TIMEOUT = 20_000;

/** Poll `read` until it satisfies `check` (vitest's expect.poll with this suite's limits). */
export function eventually<T>(read: () => T | Promise<T>, timeout = UI_TIMEOUT) {
  return expect.poll(read, { timeout, interval: 100 });
}

/**
 * Stop the page's clock (installed by `lab.openWindow({ pageClock: true })`) where it is, so what the
 * page shows no longer depends on how long the steps after this take; `page.clock.resume()` lets it run.
 */
export async function pausePageClock(page: Page): Promise<void> {
  for (;;) {
    const now = await page.evaluate(() => Date.now());
    try {
      // A moment ahead of the page's time: pausing at a time already past fails (the clock is then
      // paused where it was, and the next round pauses a moment after that).
      await page.clock.pauseAt(now + 1000);
      return;
    } catch (error) {
      if (!/past/.test((error as Error).message)) throw error;
    }
  }
}

/** Open the web shell's tokened address and wait for the window to draw. */
export async function openApp(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.getByRole('banner').getByRole('heading', { name: 'Plugboard' }).waitFor({ timeout: UI_TIMEOUT });
  await page.getByRole('button', { name: 'Add controller' }).waitFor({ timeout: UI_TIMEOUT });
}

export function controllerTab(page: Page, name: string): Locator {
  return page
    .getByRole('tablist', { name: 'Controllers' })
    .getByRole('tab', { name: new RegExp(`^${name}`) });
}

/** Wait until a controller's tab shows `status` ("online", "offline", "rebooting", "auth problem"…). */
export async function waitForStatus(
  page: Page,
  name: string,
  status: string,
  timeout = UI_TIMEOUT,
): Promise<void> {
  await page
    .getByRole('tablist', { name: 'Controllers' })
    .getByRole('tab', { name: new RegExp(`^${name} ${status}`) })
    .waitFor({ timeout });
}

export function sectionTab(page: Page, controller: string, section: string): Locator {
  return page
    .getByRole('tablist', { name: `Sections of ${controller}` })
    .getByRole('tab', { name: section, exact: true });
}

/** Open a controller's tab and one of its sections (Outlets, Scripts, Meters, Users, System, Activity). */
export async function openSection(page: Page, controller: string, section: string): Promise<void> {
  await controllerTab(page, controller).click();
  const tab = sectionTab(page, controller, section);
  await tab.click({ timeout: UI_TIMEOUT });
  await tab.and(page.locator('[aria-selected="true"]')).waitFor({ timeout: UI_TIMEOUT });
}

export async function openOverview(page: Page): Promise<void> {
  await page
    .getByRole('navigation', { name: 'Controllers and pages' })
    .getByRole('button', { name: 'Overview' })
    .click();
}

/** An outlet's row on the Outlets tab: "Outlet 3: Scope". */
export function outletRow(page: Page, number: number, name: string): Locator {
  return page.getByRole('listitem', { name: `Outlet ${number}: ${name}`, exact: true });
}

/** What a row's power switch shows (the physical state), as a word: "on" or "off". */
export async function physicalShown(row: Locator): Promise<string> {
  const checked = await row.getByRole('switch', { name: /^Power of / }).getAttribute('aria-checked');
  return checked === 'true' ? 'on' : 'off';
}

/** The open confirmation dialog. */
export function dialog(page: Page): Locator {
  return page.getByRole('dialog');
}

/** The whole visible text of the page's main area, whitespace collapsed. */
export async function mainText(page: Page): Promise<string> {
  return (await page.getByRole('main').innerText()).replace(/\s+/g, ' ');
}

/** What part of the page showed at one moment (one record of `recordChanges`). */
export interface PageMoment {
  /** The watched region's visible text, spaces collapsed. */
  text: string;
  /** The watched attribute of each watched element, in the order given (null: not set). */
  attributes: (string | null)[];
  /** The focused element's aria-label (its tag name without one), or "body". */
  focused: string;
  /** Which of the watched elements has the focus (its index), or -1. */
  focusedWatched: number;
}

/**
 * Record what `region` shows each time the page changes or the focus moves (a MutationObserver and
 * `focusin` in the page), from now until `stop()`, with one attribute of each of `watched`. A state that
 * lasts only while a request is on its way is seen however slowly the test runs, and each record is one
 * moment, so what it holds was on the page together.
 */
export async function recordChanges(
  region: Locator,
  watched: [element: Locator, attribute: string][] = [],
): Promise<{ moments(): Promise<PageMoment[]>; stop(): Promise<PageMoment[]> }> {
  const elements = await Promise.all(watched.map(([element]) => element.elementHandle()));
  const names = watched.map(([, attribute]) => attribute);
  const root = await region.elementHandle();
  const key = await root.evaluate(
    (el, { elements, names }) => {
      const moments: PageMoment[] = [];
      const take = () => {
        const active = document.activeElement;
        moments.push({
          text: (el as HTMLElement).innerText.replace(/\s+/g, ' ').trim(),
          attributes: elements.map((element, i) => element?.getAttribute(names[i]!) ?? null),
          focused:
            active === null || active === document.body
              ? 'body'
              : (active.getAttribute('aria-label') ?? active.tagName),
          focusedWatched: elements.findIndex((element) => element !== null && element === active),
        });
      };
      const observer = new MutationObserver(take);
      observer.observe(document.body, {
        attributes: true,
        childList: true,
        subtree: true,
        characterData: true,
      });
      document.addEventListener('focusin', take);
      take();
      const recorders = ((window as unknown as { recorders?: unknown[] }).recorders ??= []);
      recorders.push({
        moments,
        stop: () => {
          observer.disconnect();
          document.removeEventListener('focusin', take);
        },
      });
      return recorders.length - 1;
    },
    { elements, names },
  );
  const read = (stop: boolean) =>
    root.evaluate(
      (_, { key, stop }) => {
        const recorder = (window as unknown as { recorders: { moments: PageMoment[]; stop(): void }[] })
          .recorders[key]!;
        if (stop) recorder.stop();
        return recorder.moments;
      },
      { key, stop },
    );
  return { moments: () => read(false), stop: () => read(true) };
}

/** Whether `moments` show `state` coming and then going: a request went out and was answered. */
export function cameAndWent(moments: PageMoment[], state: (moment: PageMoment) => boolean): boolean {
  const first = moments.findIndex(state);
  return first >= 0 && moments.slice(first).some((moment) => !state(moment));
}
