/** Tags (issue 16) are edited in the System tab's connection form, as one comma-separated box. */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import ConnectionForm from '../../src-renderer/lib/components/ConnectionForm.svelte';
import type { ConnectionPatch } from '../../src-renderer/lib/state/controller-actions';
import { parseTags } from '../../src-renderer/lib/tags';
import { summary } from './fixtures';

test('tags are split on commas, trimmed, without empty ones or duplicates in any case', () => {
  expect(parseTags(' rack 7, bench,, Bench ,ci ')).toEqual({
    tags: ['rack 7', 'bench', 'ci'],
    problem: null,
  });
  expect(parseTags('')).toEqual({ tags: [], problem: null });
  expect(parseTags('a; b').problem).toBe('Tags may not contain semicolons: separate them with commas.');
  expect(parseTags('x'.repeat(41)).problem).toMatch(/is longer than 40 characters/);
  expect(parseTags(Array.from({ length: 18 }, (_, i) => `t${i}`).join(',')).problem).toBe(
    'At most 16 tags: remove 2.',
  );
});

test('the connection form shows the saved tags, saves changed ones whole, and refuses a bad one', async () => {
  const user = userEvent.setup();
  const patches: ConnectionPatch[] = [];
  render(ConnectionForm, {
    summary: summary({ tags: ['bench'] }),
    onsave: async (patch: ConnectionPatch) => (patches.push(patch), { ok: true as const, value: summary() }),
  });
  const form = screen.getByRole('form', { name: 'Connection' });
  const tags = within(form).getByRole('textbox', { name: 'Tags (optional)' });
  expect(tags).toHaveValue('bench');
  await user.type(tags, ', rack 7;');
  await user.click(within(form).getByRole('button', { name: 'Save connection' }));
  expect(within(form).getByText('Tags may not contain semicolons: separate them with commas.')).toBeVisible();
  expect(tags).toHaveAttribute('aria-invalid', 'true');
  expect(patches).toEqual([]);
  await user.type(tags, '{Backspace}, ci');
  await user.click(within(form).getByRole('button', { name: 'Save connection' }));
  await user.clear(tags);
  await user.click(within(form).getByRole('button', { name: 'Save connection' }));
  expect(patches).toEqual([{ tags: ['bench', 'rack 7', 'ci'] }, { tags: [] }]);
});
