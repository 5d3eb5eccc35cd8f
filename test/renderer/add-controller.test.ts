import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import type { CallInput } from '../../src-preload/contract';
import type { ControllerSummary, Result } from '../../src-preload/model';
import App from '../../src-renderer/App.svelte';
import ManualAddForm from '../../src-renderer/lib/components/ManualAddForm.svelte';
import { snapshot, summary } from './fixtures';
import { TestBackend } from './test-backend';

const FP = 'AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89';

function renderForm(answers: Result<ControllerSummary>[]) {
  const sent: CallInput<'controllers/add'>[] = [];
  const added: ControllerSummary[] = [];
  render(ManualAddForm, {
    colour: '#10b981',
    onadd: async (input: CallInput<'controllers/add'>) => {
      sent.push(input);
      return answers.shift()!;
    },
    onadded: (s: ControllerSummary) => added.push(s),
  });
  return { sent, added };
}

describe('adding by address', () => {
  test('checks the fields before asking the controller', async () => {
    const user = userEvent.setup();
    const { sent } = renderForm([]);
    await user.clear(screen.getByLabelText('User'));
    await user.click(screen.getByRole('button', { name: 'Add this controller' }));
    expect(screen.getByText(/Enter the controller’s address, e.g\. 192\.168\.0\.100/)).toBeVisible();
    expect(screen.getByText('Enter the user name (no spaces or colons).')).toBeVisible();
    expect(screen.getByText('Enter the password.')).toBeVisible();
    expect(sent).toEqual([]);
  });

  test('an untrusted HTTPS certificate shows its fingerprint; accepting retries with it', async () => {
    const user = userEvent.setup();
    const { sent, added } = renderForm([
      {
        ok: false,
        error: {
          code: 'TLS_UNTRUSTED',
          message: 'First HTTPS connection to 10.0.0.7.',
          detail: { fingerprint: FP },
        },
      },
      { ok: true, value: summary({ url: 'https://10.0.0.7' }) },
    ]);
    await user.type(screen.getByLabelText('Address'), 'https://10.0.0.7');
    expect(screen.getByRole('radio', { name: /https/ })).toBeChecked();
    await user.type(screen.getByLabelText('Password'), '1234');
    await user.click(screen.getByRole('button', { name: 'Add this controller' }));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('Check this controller’s certificate.');
    expect(within(alert).getByText(FP)).toBeVisible();
    await user.click(within(alert).getByRole('button', { name: 'Accept and add' }));
    expect(sent).toEqual([
      {
        url: 'https://10.0.0.7',
        auth: { kind: 'digest', user: 'admin', password: '1234' },
        colour: '#10b981',
      },
      {
        url: 'https://10.0.0.7',
        auth: { kind: 'digest', user: 'admin', password: '1234' },
        colour: '#10b981',
        fingerprint: FP,
      },
    ]);
    expect(added.map((s) => s.url)).toEqual(['https://10.0.0.7']);
  });

  test('a wrong password is explained with what to do', async () => {
    const user = userEvent.setup();
    const { added } = renderForm([
      {
        ok: false,
        error: { code: 'AUTH_FAILED', message: 'The controller at 10.0.0.7 refused user admin.' },
      },
    ]);
    await user.type(screen.getByLabelText('Address'), '10.0.0.7');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Add this controller' }));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('http://10.0.0.7 was not added.');
    expect(alert).toHaveTextContent('The controller at 10.0.0.7 refused user admin.');
    expect(alert).toHaveTextContent('What to do:');
    expect(added).toEqual([]);
  });

  test('a token login sends the token and no user', async () => {
    const user = userEvent.setup();
    const { sent } = renderForm([{ ok: true, value: summary() }]);
    await user.type(screen.getByLabelText('Address'), 'pdu-3.lab:8080');
    await user.click(screen.getByRole('radio', { name: 'Access token' }));
    expect(screen.getByText('Access tokens need controller firmware 1.10 or newer.')).toBeVisible();
    await user.type(screen.getByLabelText('Token'), 'tok-123');
    await user.type(screen.getByLabelText('Name in Plugboard (optional)'), 'Rack 3');
    await user.click(screen.getByRole('button', { name: 'Add this controller' }));
    expect(sent).toEqual([
      {
        url: 'http://pdu-3.lab:8080',
        auth: { kind: 'token', token: 'tok-123' },
        colour: '#10b981',
        name: 'Rack 3',
      },
    ]);
  });
});

describe('the add page in the window', () => {
  let backend: TestBackend;
  beforeEach(() => {
    backend = new TestBackend().answer('app/snapshot', () => ({ ok: true, value: snapshot() }));
    (window as { plugboard?: unknown }).plugboard = backend.api;
  });
  afterEach(() => delete (window as { plugboard?: unknown }).plugboard);

  test('discovery shows the probe’s progress and its results; a result fills the form', async () => {
    const user = userEvent.setup();
    backend.answer('discovery/start', () => ({ ok: true, value: { runId: 'run-1' } }));
    render(App);
    await user.click(screen.getByRole('button', { name: 'Add controller' }));
    expect(screen.getByRole('button', { name: 'Add controller' })).toHaveAttribute('aria-current', 'page');
    // Multicast only when asked: an address range searches that range alone.
    expect(screen.getByRole('checkbox', { name: /mDNS/ })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: /SSDP/ })).not.toBeChecked();
    await user.type(screen.getByLabelText(/Address range to probe/), '127.0.0.2-127.0.0.40');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(backend.callsOf('discovery/start')).toEqual([
      { mdns: false, ssdp: false, range: '127.0.0.2-127.0.0.40' },
    ]);

    const found = {
      url: 'http://127.0.0.9:8080',
      host: '127.0.0.9',
      port: 8080,
      name: 'Bench 9',
      serial: 'PRO-9',
      model: 'Web Power Switch Pro',
      sources: ['probe' as const],
      savedId: null,
    };
    backend.emit('discovery/progress', {
      runId: 'run-1',
      probed: 13,
      total: 39,
      done: false,
      results: [found],
      error: null,
    });
    const bar = await screen.findByRole('progressbar', { name: 'Addresses probed' });
    expect(bar).toHaveAttribute('value', '13');
    expect(bar).toHaveAttribute('max', '39');
    expect(screen.getByText('Probed 13 of 39 addresses…')).toBeVisible();
    expect(screen.getByRole('button', { name: 'Stop' })).toBeInTheDocument();

    backend.emit('discovery/progress', {
      runId: 'run-1',
      probed: 39,
      total: 39,
      done: true,
      results: [found],
      error: null,
    });
    expect(await screen.findByText('Probed 39 of 39 addresses — done.')).toBeVisible();
    await user.click(screen.getByRole('button', { name: 'Use Bench 9' }));
    expect(screen.getByLabelText('Address')).toHaveValue('127.0.0.9:8080');
    expect(screen.getByLabelText('Name in Plugboard (optional)')).toHaveValue('Bench 9');
  });

  test('the demo button says why the demo did not start, and opens its first controller when it does', async () => {
    const user = userEvent.setup();
    render(App);
    await user.click(screen.getByRole('button', { name: 'Add controller' }));
    await user.click(screen.getByRole('button', { name: 'Try the demo' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The demo did not start.');

    backend.answer('demo/start', () => ({
      ok: true,
      value: [summary({ id: 'demo-1', name: 'Demo bench', demo: true })],
    }));
    await user.click(screen.getByRole('button', { name: 'Try the demo' }));
    expect(await screen.findByRole('tab', { name: /Demo bench/ })).toHaveAttribute('aria-selected', 'true');
  });

  test('adding opens the new controller’s tab', async () => {
    const user = userEvent.setup();
    backend.answer('controllers/add', () => ({ ok: true, value: summary({ id: 'new', name: 'Bench N' }) }));
    render(App);
    await user.click(screen.getByRole('button', { name: 'Add controller' }));
    await user.type(screen.getByLabelText('Address'), '127.0.0.1:8080');
    await user.type(screen.getByLabelText('Password'), '1234');
    await user.click(screen.getByRole('button', { name: 'Add this controller' }));
    expect(await screen.findByRole('tab', { name: /Bench N/ })).toHaveAttribute('aria-selected', 'true');
  });
});
