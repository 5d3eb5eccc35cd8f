import type { Attachment } from 'svelte/attachments';

/**
 * Up/Down arrows move focus to the same kind of control (`data-col`) in the previous/next row
 * (`data-row`), skipping disabled ones. Attached with `{@attach rowNavigation}` on the list.
 */
export const rowNavigation: Attachment<HTMLElement> = (list) => {
  const onKeydown = (event: KeyboardEvent) => {
    if (event.key !== 'ArrowUp' && event.key !== 'ArrowDown') return;
    const target = event.target as HTMLElement;
    if (target.matches('input[type="text"], input:not([type]), textarea, select')) return;
    const col = target.dataset.col;
    const row = target.closest<HTMLElement>('[data-row]');
    if (!col || !row) return;
    const rows = [...list.querySelectorAll<HTMLElement>('[data-row]')];
    const step = event.key === 'ArrowDown' ? 1 : -1;
    for (let i = rows.indexOf(row) + step; i >= 0 && i < rows.length; i += step) {
      const next = rows[i]!.querySelector<HTMLElement>(`[data-col="${col}"]:not(:disabled)`);
      if (next) {
        event.preventDefault();
        next.focus();
        return;
      }
    }
  };
  list.addEventListener('keydown', onKeydown);
  return () => list.removeEventListener('keydown', onKeydown);
};

/** A window-wide shortcut: Ctrl+K (or ⌘K) opens the quick switcher; Ctrl/Alt+0–9 open a page or controller. */
export type Shortcut = { kind: 'switcher' } | { kind: 'digit'; n: number };

export function shortcutOf(event: KeyboardEvent): Shortcut | null {
  if ((event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey && event.code === 'KeyK')
    return { kind: 'switcher' };
  if (!(event.ctrlKey || event.altKey) || event.shiftKey || !/^Digit[0-9]$/.test(event.code)) return null;
  return { kind: 'digit', n: Number(event.code.slice(5)) };
}

/** Frames to wait for something that is about to be drawn (a controller's outlets after opening it). */
const DRAW_FRAMES = 120;

function nextFrame(): Promise<void> {
  return new Promise((resolve) => requestAnimationFrame(() => resolve()));
}

/**
 * Scroll to an outlet's row inside `root` and focus it (its Select box, or the row itself while that is
 * blocked), once it is drawn; shows the Outlets section first when another section is open. False when
 * the row never appeared (the controller's outlets are not read yet).
 */
export async function focusOutletRow(root: () => HTMLElement | null, outlet: number): Promise<boolean> {
  for (let frame = 0; frame < DRAW_FRAMES; frame++) {
    const row = root()?.querySelector<HTMLElement>(`li[data-row="${outlet}"]`);
    if (row) {
      row.scrollIntoView?.({ block: 'center' });
      const control = row.querySelector<HTMLElement>('[data-col="select"]:not(:disabled)');
      if (control) control.focus();
      else {
        row.tabIndex = -1;
        row.focus();
      }
      return true;
    }
    const outletsTab = root()?.querySelector<HTMLElement>('[data-section="outlets"][aria-selected="false"]');
    outletsTab?.click();
    await nextFrame();
  }
  return false;
}

/** Scroll to a group's card in the Overview and focus it. */
export async function focusGroupCard(root: () => HTMLElement | null, name: string): Promise<boolean> {
  for (let frame = 0; frame < DRAW_FRAMES; frame++) {
    const box = [...(root()?.querySelectorAll<HTMLElement>('[role="group"]') ?? [])].find(
      (el) => el.getAttribute('aria-label') === `Group ${name}`,
    );
    const card = box?.closest<HTMLElement>('li') ?? box;
    if (card) {
      card.scrollIntoView?.({ block: 'center' });
      card.tabIndex = -1;
      card.focus();
      return true;
    }
    await nextFrame();
  }
  return false;
}

/**
 * Scroll the nearest scrolling box around `element` (the sidebar's list) just enough to show it, with a
 * little room around it; the page itself does not move, unlike `scrollIntoView`.
 */
export function revealInScroller(element: HTMLElement, margin = 8): void {
  let box = element.parentElement;
  while (box && !(box.scrollHeight > box.clientHeight && /auto|scroll/.test(getComputedStyle(box).overflowY)))
    box = box.parentElement;
  if (!box) return;
  const row = element.getBoundingClientRect();
  const view = box.getBoundingClientRect();
  if (row.top < view.top) box.scrollTop -= view.top - row.top + margin;
  else if (row.bottom > view.bottom) box.scrollTop += row.bottom - view.bottom + margin;
}
