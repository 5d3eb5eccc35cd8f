/** An offline controller's header says when Plugboard tries again (issue 16 item 14). */
import { render, screen } from '@testing-library/svelte';
import { afterEach, beforeEach, expect, test, vi } from 'vitest';
import ControllerHeader from '../../src-renderer/lib/components/ControllerHeader.svelte';
import { controllerState, summary } from './fixtures';

const NOW = Date.UTC(2026, 10, 24, 12, 0, 0);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

const actions = {
  refresh: async () => ({ ok: true as const, value: null }),
  trustCertificate: async () => ({ ok: true as const, value: summary() }),
  update: async () => ({ ok: true as const, value: summary() }),
};
const offline = controllerState({
  status: 'offline',
  problem: { code: 'UNREACHABLE', message: 'Nothing answered at 192.168.0.100.' },
  nextAttemptAt: NOW + 16_000,
});

test('offline with a planned attempt: "retrying in N s", counting down on the window clock', async () => {
  render(ControllerHeader, { summary: summary(), live: offline, pollIntervalMs: 2000, actions });
  expect(screen.getByText('· retrying in 16 s')).toBeVisible();
  await vi.advanceTimersByTimeAsync(5_000);
  expect(screen.getByText('· retrying in 11 s')).toBeVisible();
  await vi.advanceTimersByTimeAsync(12_000);
  expect(screen.getByText('· retrying now')).toBeVisible();
});

test('nothing planned (paused for a password, or online): no retry words', () => {
  const { rerender } = render(ControllerHeader, {
    summary: summary(),
    live: { ...offline, status: 'auth_failed', nextAttemptAt: null },
    pollIntervalMs: 2000,
    actions,
  });
  expect(screen.queryByText(/retrying/)).toBeNull();
  void rerender({ live: controllerState() });
  expect(screen.queryByText(/retrying/)).toBeNull();
});
