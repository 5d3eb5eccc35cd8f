/** Issue 16 item 4 in the window: prompts grouped by user, and the System tab saying where the secret lives. */
import { render, screen } from '@testing-library/svelte';
import { describe, expect, test } from 'vitest';
import type { ControllerState } from '../../src-preload/model';
import SystemPanel from '../../src-renderer/lib/panels/SystemPanel.svelte';
import { passwordGroups, promptTitle, secretHint } from '../../src-renderer/lib/password-needed';
import { controllerState, summary } from './fixtures';

const ok = { ok: true as const, value: null };

describe('password-needed prompt', () => {
  test('one group per user, only controllers that need a password, tokens last', () => {
    const a = { ...summary(), id: 'a', name: 'Bench A', user: 'admin' };
    const b = { ...summary(), id: 'b', name: 'Bench B', user: 'admin' };
    const c = { ...summary(), id: 'c', name: 'Bench C', user: 'ops' };
    const t = { ...summary(), id: 't', name: 'Tok', auth: 'token' as const, user: '' };
    const online = { ...summary(), id: 'o', name: 'Fine', user: 'admin' };
    const states: Record<string, ControllerState> = Object.fromEntries(
      [a, b, c, t, online].map((x) => [
        x.id,
        controllerState({ id: x.id, status: x.id === 'o' ? 'online' : 'password_needed' }),
      ]),
    );
    const groups = passwordGroups([t, a, c, online, b], states);
    expect(groups.map((g) => [g.user, g.controllers.map((x) => x.name)])).toEqual([
      ['admin', ['Bench A', 'Bench B']],
      ['ops', ['Bench C']],
      ['', ['Tok']],
    ]);
    expect(groups.map(promptTitle)).toEqual([
      'Enter the password for admin on 2 controllers',
      'Enter the password for ops on Bench C',
      'Tok needs its access token',
    ]);
  });
});

describe('System tab: where the secret lives', () => {
  for (const where of ['session', 'missing', 'keychain'] as const) {
    test(`says "${where}" as the Core reports it`, async () => {
      render(SystemPanel, {
        summary: summary(),
        live: controllerState(),
        onremoved: () => undefined,
        actions: {
          setSsh: async () => ok,
          setRelayTiming: async () => ok,
          reboot: async () => ok,
          tree: async (path: string) => ({ ok: true as const, value: { path, depth: 1, value: {} } }),
          update: async () => ({ ok: true as const, value: summary() }),
          remove: async () => ok,
          secretWhere: async () => ({ ok: true as const, value: { where } }),
        },
      });
      expect(await screen.findByText(secretHint('password', where))).toBeVisible();
      if (where !== 'keychain') expect(screen.queryByText(/saved in the system keychain/)).toBeNull();
    });
  }
});
