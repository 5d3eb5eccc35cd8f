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
