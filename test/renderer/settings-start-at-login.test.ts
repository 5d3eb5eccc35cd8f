import { render, screen } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type { CallInput } from '../../src-preload/contract';
import type { Settings } from '../../src-preload/model';
import SettingsView from '../../src-renderer/lib/components/SettingsView.svelte';
import { DEFAULT_SETTINGS } from '../../src-renderer/lib/state/app-state.svelte';

test('start at login is off by default and saves as soon as it is ticked or cleared', async () => {
  const user = userEvent.setup();
  const saved: CallInput<'settings/set'>[] = [];
  render(SettingsView, {
    settings: DEFAULT_SETTINGS,
    describe: (id: string) => id,
    onsave: async (patch: CallInput<'settings/set'>) => {
      saved.push(patch);
      return { ok: true, value: { ...DEFAULT_SETTINGS, ...patch } as Settings };
    },
  });
  const box = screen.getByRole('checkbox', { name: 'Start Plugboard when I log in' });
  expect(box).not.toBeChecked();
  await user.click(box);
  await user.click(box);
  expect(saved).toEqual([{ startAtLogin: true }, { startAtLogin: false }]);
});
