/**
 * Measurement 13 in the page (Chromium): when every Overview tile shows its controller online, and how
 * long a click on an Overview outlet takes until its pending state is painted (event.timeStamp → the
 * first frame that shows it busy, or already switched when the answer beat the frame; see LISTEN).
 */
import type { Locator, Page } from 'playwright-core';

/** Epoch ms (performance.timeOrigin + now) when `count` Overview tiles said "online". */
export async function overviewLiveAt(page: Page, count: number, timeoutMs: number): Promise<number> {
  const handle = await page.waitForFunction(
    (n) => {
      const online = document.querySelectorAll('main article [data-status="online"]').length;
      return online >= n ? performance.timeOrigin + performance.now() : false;
    },
    count,
    { polling: 20, timeout: timeoutMs },
  );
  return (await handle.jsonValue()) as number;
}

interface Stamp {
  ms: number | null;
}

/**
 * Installed before each click: on the click, watch the clicked button each frame until it shows busy
 * (pending) or already switched (the answer beat the frame). A rAF callback runs just before its frame is
 * painted; a task queued from it runs after that paint: then the time since event.timeStamp is taken.
 */
const LISTEN = `(() => {
  window.m13 = { ms: null };
  document.addEventListener('click', (event) => {
    const button = event.target.closest('button');
    const clicked = event.timeStamp;
    const pressed = button && button.getAttribute('aria-pressed');
    const changed = () => !!button &&
      (button.getAttribute('aria-busy') === 'true' || button.getAttribute('aria-pressed') !== pressed);
    const look = () => {
      if (!changed()) requestAnimationFrame(look);
      else setTimeout(() => { window.m13.ms = performance.now() - clicked; });
    };
    requestAnimationFrame(look);
  }, { capture: true, once: true });
})()`;

/**
 * Click `tile` (a DOM click event dispatched to it: Chromium's input routing, about a millisecond, is
 * not counted) and return the milliseconds from the event's timeStamp to the paint of the frame that
 * first shows the tile busy.
 */
export async function clickToPaint(page: Page, tile: Locator, timeoutMs: number): Promise<number> {
  // Tiles move while problems are sorted first (a controller whose last answer is old counts), so
  // Playwright's "stable" check can wait for ever: scroll it into view and dispatch the click to it.
  await tile.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  // A string, not a function: tsx would wrap the named helpers inside in __name(), unknown in the page.
  await page.evaluate(LISTEN);
  await tile.dispatchEvent('click');
  const handle = await page.waitForFunction(() => (window as unknown as { m13: Stamp }).m13.ms, undefined, {
    polling: 10,
    timeout: timeoutMs,
  });
  return (await handle.jsonValue()) as number;
}
