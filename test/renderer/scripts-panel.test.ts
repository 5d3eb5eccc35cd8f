import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { Result } from '../../src-preload/model';
import ScriptsPanel from '../../src-renderer/lib/panels/ScriptsPanel.svelte';
import { callPreview, luaLiteral, parseArgs } from '../../src-renderer/lib/script-args';
import { capabilities, controllerState } from './fixtures';

function scriptActions(answer: Result<{ threadId: string }> = { ok: true, value: { threadId: '17' } }) {
  const started: { fn: string; args: unknown[] }[] = [];
  const stopped: (string[] | 'all')[] = [];
  return {
    started,
    stopped,
    actions: {
      startScript: async (fn: string, args: (number | string | boolean)[]) => {
        started.push({ fn, args });
        return answer;
      },
      stopScripts: async (threads: string[] | 'all') => {
        stopped.push(threads);
        return { ok: true as const, value: null };
      },
    },
  };
}

describe('script arguments', () => {
  test('text becomes a Lua string with escapes, never code', () => {
    expect(luaLiteral('say "hi"\n\\ end')).toBe('"say \\"hi\\"\\n\\\\ end"');
    expect(luaLiteral('a\u0001b')).toBe('"a\\001b"');
    expect(callPreview('f', [{ kind: 'text', value: '") os.exit() --' }])).toBe('f("\\") os.exit() --")');
  });

  test('numbers must be numbers; true/false must be chosen', () => {
    expect(
      parseArgs([
        { kind: 'number', value: ' 5 ' },
        { kind: 'number', value: '-2.5e1' },
      ]),
    ).toEqual({
      ok: true,
      args: [5, -25],
    });
    const bad = parseArgs([
      { kind: 'number', value: '1,5' },
      { kind: 'number', value: '' },
      { kind: 'number', value: 'Infinity' },
      { kind: 'boolean', value: 'yes' },
      { kind: 'text', value: 'x'.repeat(257) },
    ]);
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.reasons.every((r) => typeof r === 'string')).toBe(true);
  });
});

describe('scripts panel', () => {
  test('builds the call from typed fields, shows it, and starts it with typed values', async () => {
    const user = userEvent.setup();
    const { started, actions } = scriptActions();
    render(ScriptsPanel, { controllerName: 'Bench A', user: 'admin', live: controllerState(), actions });
    await user.click(screen.getByRole('button', { name: 'Start cycle_an_outlet…' }));
    const form = screen.getByRole('form', { name: 'Start cycle_an_outlet' });
    const preview = within(form).getByRole('status');
    expect(preview).toHaveTextContent('cycle_an_outlet()');

    await user.click(within(form).getByRole('button', { name: 'Add argument' }));
    await user.type(within(form).getByRole('textbox', { name: 'Argument 1 value' }), '5');
    await user.click(within(form).getByRole('button', { name: 'Add argument' }));
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Argument 2 type' }), 'Text');
    await user.type(within(form).getByRole('textbox', { name: 'Argument 2 value' }), 'lamp "A"');
    await user.click(within(form).getByRole('button', { name: 'Add argument' }));
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Argument 3 type' }), 'True / false');
    await user.selectOptions(within(form).getByRole('combobox', { name: 'Argument 3 value' }), 'false');
    expect(preview).toHaveTextContent('cycle_an_outlet(5, "lamp \\"A\\"", false)');

    await user.click(within(form).getByRole('button', { name: 'Start' }));
    expect(started).toEqual([{ fn: 'cycle_an_outlet', args: [5, 'lamp "A"', false] }]);
    expect(
      screen.getByText('cycle_an_outlet started as thread 17.', { selector: '[aria-hidden]' }),
    ).toBeInTheDocument();
  });

  test('rejects a value that is not a number and does not start', async () => {
    const user = userEvent.setup();
    const { started, actions } = scriptActions();
    render(ScriptsPanel, { controllerName: 'Bench A', user: 'admin', live: controllerState(), actions });
    await user.click(screen.getByRole('button', { name: 'Start flash_a_light…' }));
    const form = screen.getByRole('form', { name: 'Start flash_a_light' });
    await user.click(within(form).getByRole('button', { name: 'Add argument' }));
    const value = within(form).getByRole('textbox', { name: 'Argument 1 value' });
    await user.type(value, 'five');
    await user.click(within(form).getByRole('button', { name: 'Start' }));
    expect(
      within(form).getByText('Argument 1: “five” is not a number (use digits, a point for decimals).'),
    ).toBeVisible();
    expect(value).toHaveAttribute('aria-invalid', 'true');
    expect(within(form).getByRole('status')).toHaveTextContent('flash_a_light(?)');
    expect(started).toEqual([]);
  });

  test('an error from the controller is shown in the form', async () => {
    const user = userEvent.setup();
    const { actions } = scriptActions({
      ok: false,
      error: { code: 'FORBIDDEN', message: 'Only administrators may start scripts on Bench A.' },
    });
    render(ScriptsPanel, { controllerName: 'Bench A', user: 'admin', live: controllerState(), actions });
    await user.click(screen.getByRole('button', { name: 'Start all_off…' }));
    await user.click(screen.getByRole('button', { name: 'Start' }));
    expect(screen.getByRole('alert')).toHaveTextContent('all_off did not start.');
    expect(screen.getByRole('alert')).toHaveTextContent('Only administrators may start scripts on Bench A.');
  });

  test('lists running threads with labels; stop one, and stop all after confirming', async () => {
    const user = userEvent.setup();
    const { stopped, actions } = scriptActions();
    const live = controllerState({
      scripts: {
        functions: ['flash_a_light'],
        threads: [
          { id: '3', label: 'flash_a_light(2)' },
          { id: '4', label: 'cycle_an_outlet(5,10)' },
        ],
      },
    });
    render(ScriptsPanel, { controllerName: 'Bench A', user: 'admin', live, actions });
    const rows = screen.getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      expect.stringContaining('flash_a_light(2)'),
      expect.stringContaining('cycle_an_outlet(5,10)'),
    ]);
    await user.click(screen.getByRole('button', { name: 'Stop thread 4 cycle_an_outlet(5,10)' }));
    await user.click(screen.getByRole('button', { name: 'Stop all' }));
    await user.click(within(screen.getByRole('dialog')).getByRole('button', { name: 'Stop all' }));
    expect(stopped).toEqual([['4'], 'all']);
  });

  test('a non-admin login sees why scripts are not available', () => {
    const { actions } = scriptActions();
    const live = controllerState({ capabilities: capabilities({ isAdmin: false }), scripts: null });
    render(ScriptsPanel, { controllerName: 'Bench A', user: 'tech', live, actions });
    expect(
      screen.getByText(/Scripts need an administrator\. Plugboard is logged in to Bench A as “tech”/),
    ).toBeVisible();
    expect(screen.queryByRole('button', { name: /Start/ })).toBeNull();
  });
});
