import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, test, vi } from 'vitest';
import type { ControllerState, Result, TreeNode } from '../../src-preload/model';
import SystemPanel from '../../src-renderer/lib/panels/SystemPanel.svelte';
import type { ConnectionPatch } from '../../src-renderer/lib/state/controller-actions';
import { capabilities, controllerState, summary } from './fixtures';

const ok = { ok: true as const, value: null };

function systemActions(
  tree: (path: string) => Result<TreeNode> = (path) => ({ ok: true, value: { path, depth: 1, value: {} } }),
) {
  const log: unknown[][] = [];
  return {
    log,
    actions: {
      setSsh: async (enabled: boolean) => (log.push(['ssh', enabled]), ok),
      setRelayTiming: async (timing: { cycleDelay?: number; sequenceDelay?: number }) => (
        log.push(['relayTiming', timing]),
        ok
      ),
      reboot: async () => (log.push(['reboot']), ok),
      tree: async (path: string, depth: number) => (log.push(['tree', path, depth]), tree(path)),
      update: async (patch: ConnectionPatch) => (
        log.push(['update', patch]),
        { ok: true as const, value: summary() }
      ),
      remove: async () => (log.push(['remove']), ok),
      secretWhere: async () => ({ ok: true as const, value: { where: 'keychain' as const } }),
    },
  };
}

/** The System tab of the fixture controller (Bench A). */
function renderPanel(
  live: ControllerState = controllerState(),
  actions = systemActions().actions,
  onremoved: () => void = () => undefined,
) {
  return render(SystemPanel, { summary: summary(), live, actions, onremoved });
}

afterEach(() => vi.useRealTimers());

describe('system panel', () => {
  test('shows the identity and capabilities of the controller', () => {
    renderPanel();
    for (const text of ['Web Power Switch Pro', 'PRO-0012345', '1.12.14.0', '1.0.0'])
      expect(screen.getByText(text)).toBeVisible();
    expect(screen.getByText('Switches outlets simultaneously').nextElementSibling).toHaveTextContent('yes');
  });

  test('reboot is disabled with the reason on old firmware', () => {
    const live = controllerState({ capabilities: capabilities({ reboot: false }) });
    live.identity!.firmware = '1.10.11.0';
    renderPanel(live);
    expect(screen.getByRole('button', { name: 'Reboot controller…' })).toBeDisabled();
    expect(
      screen.getByText(
        'Rebooting from Plugboard needs firmware 1.11.6.0 or newer; this controller runs 1.10.11.0.',
      ),
    ).toBeVisible();
  });

  test('reboot asks first, then shows progress until the controller is back', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'], shouldAdvanceTime: true });
    vi.setSystemTime(new Date('2025-05-01T10:00:00Z'));
    const user = userEvent.setup({ advanceTimers: vi.advanceTimersByTime });
    const { log, actions } = systemActions();
    const { rerender } = renderPanel(controllerState(), actions);
    await user.click(screen.getByRole('button', { name: 'Reboot controller…' }));
    await user.click(
      within(screen.getByRole('dialog', { name: 'Reboot Bench A?' })).getByRole('button', { name: 'Reboot' }),
    );
    expect(log).toEqual([['reboot']]);
    expect(screen.getByRole('progressbar', { name: 'Reboot in progress' })).toBeInTheDocument();

    const since = Date.now();
    await rerender({ live: controllerState({ status: 'rebooting', rebootingSince: since }) });
    await vi.advanceTimersByTimeAsync(20_000);
    expect(
      screen.getByText(/Rebooting — waiting for the controller to answer again \(20 s so far\)/),
    ).toBeVisible();
    expect(screen.getByRole('button', { name: 'Reboot controller…' })).toBeDisabled();

    await vi.advanceTimersByTimeAsync(22_000);
    await rerender({ live: controllerState({ status: 'online', lastUpdate: Date.now() }) });
    expect(screen.getByText('Back online after 42 s.')).toBeVisible();
    expect(screen.queryByRole('progressbar')).toBeNull();
  });

  test('SSH switches through the contract; non-admins see why not', async () => {
    const user = userEvent.setup();
    const { log, actions } = systemActions();
    const { rerender } = renderPanel(controllerState(), actions);
    const ssh = screen.getByRole('switch', { name: 'SSH access to the controller' });
    expect(ssh).toHaveAttribute('aria-checked', 'false');
    await user.click(ssh);
    expect(log).toEqual([['ssh', true]]);
    await rerender({ live: controllerState({ capabilities: capabilities({ isAdmin: false }) }) });
    expect(screen.getByRole('switch', { name: 'SSH access to the controller' })).toBeDisabled();
    expect(
      screen.getAllByText('Needs an administrator; Plugboard is logged in as “admin”.')[0],
    ).toBeVisible();
  });

  test('the connection form never shows the stored password and sends only what changed', async () => {
    const user = userEvent.setup();
    const { log, actions } = systemActions();
    renderPanel(controllerState(), actions);
    const form = screen.getByRole('form', { name: 'Connection' });
    const password = within(form).getByLabelText('New password');
    expect(password).toHaveValue('');
    await vi.waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        /The password is saved in the system keychain\. Type a new one to replace it/,
      ),
    );

    await user.clear(within(form).getByLabelText('Address'));
    await user.type(within(form).getByLabelText('Address'), 'https://10.0.0.7');
    await user.click(within(form).getByRole('button', { name: 'Save connection' }));
    expect(log).toEqual([['update', { url: 'https://10.0.0.7' }]]);

    await user.type(password, 'n3w-secret');
    await user.click(within(form).getByRole('button', { name: 'Save connection' }));
    expect(log[1]).toEqual([
      'update',
      { url: 'https://10.0.0.7', auth: { kind: 'digest', user: 'admin', password: 'n3w-secret' } },
    ]);
    expect(password).toHaveValue('');
  });

  test('the connection form refuses an address that is not http(s)', async () => {
    const user = userEvent.setup();
    const { log, actions } = systemActions();
    renderPanel(controllerState(), actions);
    const form = screen.getByRole('form', { name: 'Connection' });
    await user.clear(within(form).getByLabelText('Address'));
    await user.type(within(form).getByLabelText('Address'), 'ftp://x');
    await user.click(within(form).getByRole('button', { name: 'Save connection' }));
    expect(within(form).getByText(/Enter an address like http:\/\/192\.168\.0\.100/)).toBeVisible();
    expect(log).toEqual([]);
  });

  test('remove asks first, then tells the window', async () => {
    const user = userEvent.setup();
    const { log, actions } = systemActions();
    const removed: string[] = [];
    renderPanel(controllerState(), actions, () => removed.push('yes'));
    await user.click(screen.getByRole('button', { name: 'Remove Bench A…' }));
    expect(screen.getByRole('dialog')).toHaveAccessibleDescription(
      /deletes its stored password from the keychain/,
    );
    await user.click(screen.getByRole('button', { name: 'Remove' }));
    expect(log).toEqual([['remove']]);
    expect(removed).toEqual(['yes']);
  });

  test('the API tree expands and follows $ref links by fetching that path', async () => {
    const user = userEvent.setup();
    const { log, actions } = systemActions((path) =>
      path === 'relay/outlets/0/'
        ? { ok: true, value: { path, depth: 1, value: { name: 'Router', state: true } } }
        : {
            ok: true,
            value: {
              path,
              depth: 2,
              value: { name: 'Bench A', outlets: [{ $ref: '/restapi/relay/outlets/0/' }], count: 8 },
            },
          },
    );
    renderPanel(controllerState(), actions);
    await user.type(screen.getByRole('textbox', { name: 'Path /restapi/' }), 'relay/');
    await user.click(screen.getByRole('button', { name: 'Load' }));
    const tree = screen.getByRole('list', { name: 'API tree at /restapi/relay/' });
    expect(within(tree).getByText('"Bench A"')).toBeVisible();
    const outlets = within(tree).getByRole('button', { name: /outlets/ });
    expect(outlets).toHaveAttribute('aria-expanded', 'false');
    await user.click(outlets);
    await user.click(within(tree).getByRole('button', { name: 'Load relay/outlets/0/' }));
    expect(within(tree).getByText('"Router"')).toBeVisible();
    expect(log).toEqual([
      ['tree', 'relay/', 2],
      ['tree', 'relay/outlets/0/', 1],
    ]);
  });
  test('relative $ref leaves resolve against the path they were read from, at every level', async () => {
    const user = userEvent.setup();
    const answers: Record<string, unknown> = {
      'config/': { hostname: { $ref: 'hostname/' }, ssh: { $ref: 'ssh/' } },
      'config/ssh/': { port: { $ref: 'port/' }, up: { $ref: '../version/' } },
      'config/ssh/port/': 22,
      'config/version/': '1.12.14.0',
    };
    const { log, actions } = systemActions((path) =>
      path in answers
        ? { ok: true, value: { path, depth: 1, value: answers[path] } }
        : { ok: false, error: { code: 'BAD_INPUT', message: `no ${path}` } },
    );
    renderPanel(controllerState(), actions);
    await user.type(screen.getByRole('textbox', { name: 'Path /restapi/' }), 'config/');
    await user.click(screen.getByRole('button', { name: 'Load' }));
    const tree = screen.getByRole('list', { name: 'API tree at /restapi/config/' });
    await user.click(within(tree).getByRole('button', { name: 'Load config/ssh/' }));
    await user.click(within(tree).getByRole('button', { name: 'Load config/ssh/port/' }));
    expect(within(tree).getByText('22')).toBeVisible();
    await user.click(within(tree).getByRole('button', { name: 'Load config/version/' }));
    expect(within(tree).getByText('"1.12.14.0"')).toBeVisible();
    expect(within(tree).getByRole('button', { name: 'Load config/hostname/' })).toBeEnabled();
    expect(log).toEqual([
      ['tree', 'config/', 2],
      ['tree', 'config/ssh/', 1],
      ['tree', 'config/ssh/port/', 1],
      ['tree', 'config/version/', 1],
    ]);
  });
});

describe('relay timing', () => {
  test('shows the relay timing and sends only what changed', async () => {
    const user = userEvent.setup();
    const { log, actions } = systemActions();
    renderPanel(controllerState(), actions);
    const cycle = screen.getByRole('textbox', { name: 'Relay cycle delay in seconds' });
    const sequence = screen.getByRole('textbox', { name: 'Relay sequence delay in seconds' });
    expect(cycle).toHaveValue('4');
    expect(sequence).toHaveValue('1');
    const save = screen.getByRole('button', { name: 'Save timing' });
    expect(save).toBeDisabled();
    await user.clear(sequence);
    await user.type(sequence, '61');
    expect(screen.getByText('The sequence delay is whole seconds from 0 to 60.')).toBeInTheDocument();
    expect(save).toBeDisabled();
    await user.clear(sequence);
    await user.type(sequence, '2');
    await user.click(save);
    expect(log).toEqual([['relayTiming', { sequenceDelay: 2 }]]);
  });

  test('is disabled with the reason for a user who is not an administrator', () => {
    renderPanel(controllerState({ capabilities: capabilities({ isAdmin: false }) }));
    expect(screen.getByRole('textbox', { name: 'Relay cycle delay in seconds' })).toBeDisabled();
    expect(screen.getByRole('button', { name: 'Save timing' })).toBeDisabled();
    expect(
      within(screen.getByRole('form', { name: 'Relay timing' })).getByText(/Needs an administrator/),
    ).toBeInTheDocument();
  });

  test('a delay Plugboard would not write (0.5 s) does not block changing the other one', async () => {
    const user = userEvent.setup();
    const { log, actions } = systemActions();
    renderPanel(controllerState({ relayTiming: { cycleDelay: 4, sequenceDelay: 0.5 } }), actions);
    const cycle = screen.getByRole('textbox', { name: 'Relay cycle delay in seconds' });
    expect(screen.getByRole('textbox', { name: 'Relay sequence delay in seconds' })).toHaveValue('0.5');
    await user.clear(cycle);
    await user.type(cycle, '6');
    await user.click(screen.getByRole('button', { name: 'Save timing' }));
    expect(log).toEqual([['relayTiming', { cycleDelay: 6 }]]);
  });
});
