/**
 * Issue 16 items 2 and 14: a control stays focused while its request is on its way (aria-disabled, not
 * disabled), a rename gives focus back to the pencil, and the pencil and star say what they do.
 */
import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { OutletActionResult, Result } from '../../src-preload/model';
import OutletsPanel from '../../src-renderer/lib/panels/OutletsPanel.svelte';
import { controllerState } from './fixtures';

/** Actions whose answers the test releases by hand, recording what was asked. */
function heldActions() {
  const sent: string[] = [];
  const waiting: (() => void)[] = [];
  const held = <T>(value: T): Promise<Result<T>> =>
    new Promise((resolve) => waiting.push(() => resolve({ ok: true, value })));
  const answer = (outlets: number[]): OutletActionResult => ({ requested: outlets, failed: [] });
  return {
    sent,
    release: () => waiting.splice(0).forEach((go) => go()),
    actions: {
      set: (outlets: number[] | 'all', on: boolean, transient = false) => {
        sent.push(`set ${String(outlets)} ${on} ${transient}`);
        return held(answer(outlets === 'all' ? [] : outlets));
      },
      cycle: (n: number) => {
        sent.push(`cycle ${n}`);
        return held(answer([n]));
      },
      switchMany: (changes: { outlet: number; on: boolean }[]) => held(answer(changes.map((c) => c.outlet))),
      rename: (n: number, name: string) => {
        sent.push(`rename ${n} ${name}`);
        return held(null);
      },
      configure: () => held(null),
    },
  };
}

function renderPanel(actions: ReturnType<typeof heldActions>['actions'], tray = true) {
  return render(OutletsPanel, {
    controllerName: 'Bench A',
    user: 'admin',
    live: controllerState(),
    actions,
    favourites: [1],
    onfavourite: () => undefined,
    tray,
  });
}

test('a switch keeps focus while its request is on its way, and a second press sends nothing', async () => {
  const user = userEvent.setup();
  const { sent, release, actions } = heldActions();
  renderPanel(actions);
  const on = screen.getByRole('switch', { name: 'Power of outlet 2 (Server)' });
  on.focus();
  await user.keyboard('{Enter}');
  expect(on).toHaveAttribute('aria-disabled', 'true');
  expect(on).not.toBeDisabled();
  expect(on).toHaveFocus();
  await user.keyboard('{Enter}');
  // The temporary switch in the menu waits too, and says why.
  await user.click(screen.getByRole('button', { name: 'More actions for outlet 2 (Server)' }));
  const temporary = screen.getByRole('menuitem', { name: /^Switch on temporarily/ });
  expect(temporary).toHaveAttribute('aria-disabled', 'true');
  expect(temporary).toHaveAttribute('title', 'A change is on its way to the controller.');
  await user.click(temporary);
  expect(sent).toEqual(['set 2 true false']);
  await user.keyboard('{Escape}');
  release();
  await expect.poll(() => on.getAttribute('aria-disabled')).toBeNull();
  // Escape closed the menu and gave the focus back to its button.
  expect(screen.getByRole('button', { name: 'More actions for outlet 2 (Server)' })).toHaveFocus();
});

test('after a rename focus goes back to the row’s menu; the menu and the star say what they do', async () => {
  const user = userEvent.setup();
  const { sent, release, actions } = heldActions();
  renderPanel(actions);
  const menu = screen.getByRole('button', { name: 'More actions for outlet 8 (Spare)' });
  expect(menu).toHaveAttribute('title', 'More actions for outlet 8 (Spare)');
  expect(menu).toHaveAttribute('aria-haspopup', 'menu');
  const star = screen.getByRole('button', { name: 'Pin outlet 1 (Router) to the tray' });
  expect(star).toHaveAttribute('title', expect.stringMatching(/Pinned to the tray menu/));
  expect(screen.getByRole('button', { name: 'Pin outlet 2 (Server) to the tray' })).toHaveAttribute(
    'title',
    'Pin to the tray menu',
  );

  await user.click(menu);
  expect(menu).toHaveAttribute('aria-expanded', 'true');
  await user.click(screen.getByRole('menuitem', { name: 'Rename…' }));
  const input = screen.getByRole('textbox', { name: 'New name for outlet 8 (Spare)' });
  expect(input).toHaveFocus();
  await user.clear(input);
  await user.type(input, 'Analyser');
  await user.click(screen.getByRole('button', { name: 'Save' }));
  const save = screen.getByRole('button', { name: 'Save' });
  expect(save).toHaveAttribute('aria-disabled', 'true');
  expect(save).toHaveFocus();
  await user.click(save);
  expect(sent).toEqual(['rename 8 Analyser']);
  release();
  await expect
    .poll(() => document.activeElement?.getAttribute('aria-label'))
    .toBe('More actions for outlet 8 (Spare)');
});

test('without a tray (the web shell) there is no star to pin with', () => {
  renderPanel(heldActions().actions, false);
  expect(screen.queryByRole('button', { name: /to the tray/ })).toBeNull();
  expect(screen.getByRole('button', { name: 'More actions for outlet 1 (Router)' })).toBeInTheDocument();
});
