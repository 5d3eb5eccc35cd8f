/**
 * Bulk add in the window (issue 16 item 7) and the Add form's error (item 14): one login for many
 * controllers, every certificate reviewed and accepted together, a password per user for CSV rows,
 * and a wrong password said once, under the button.
 */
import { render, screen, within } from '@testing-library/svelte';
import userEvent from '@testing-library/user-event';
import { expect, test } from 'vitest';
import type {
  BulkAddResult,
  CallInput,
  ControllerSummary,
  CsvImportPreview,
  Result,
} from '../../src-preload/contract';
import BulkAddForm from '../../src-renderer/lib/components/BulkAddForm.svelte';
import CsvImport from '../../src-renderer/lib/components/CsvImport.svelte';
import ManualAddForm from '../../src-renderer/lib/components/ManualAddForm.svelte';
import { summary } from './fixtures';

const FP1 = `AA:${'01:'.repeat(30)}01`;
const FP2 = `BB:${'02:'.repeat(30)}02`;
const units = ['https://10.0.0.1', 'https://10.0.0.2', 'http://10.0.0.3'].map((url) => ({ url, label: url }));

function untrusted(url: string, fingerprint: string): BulkAddResult {
  return {
    url,
    name: null,
    added: null,
    error: { code: 'TLS_UNTRUSTED', message: 'First HTTPS connection.', detail: { fingerprint } },
  };
}
function added(url: string, name: string): BulkAddResult {
  return { url, name: null, added: summary({ url, name }), error: null };
}

function renderBulk(answers: BulkAddResult[][], props: { units?: typeof units; users?: string[] } = {}) {
  const sent: CallInput<'controllers/addMany'>[] = [];
  render(BulkAddForm, {
    units: props.units ?? units,
    users: props.users ?? [],
    onadd: async (input: CallInput<'controllers/addMany'>): Promise<Result<BulkAddResult[]>> => {
      // Each run is named for its progress events; what else was sent is compared as it is.
      const { progressId, ...rest } = input;
      expect(progressId).toMatch(/^[\w-]+$/);
      sent.push(rest);
      return { ok: true, value: answers.shift()! };
    },
  });
  return sent;
}

test('counts the controllers checked while the Core adds them', async () => {
  const user = userEvent.setup();
  let answer: (value: Result<BulkAddResult[]>) => void = () => undefined;
  const listeners = new Map<string, (checked: number) => void>();
  let asked = '';
  render(BulkAddForm, {
    units,
    onadd: (input: CallInput<'controllers/addMany'>) => {
      asked = input.progressId!;
      return new Promise<Result<BulkAddResult[]>>((resolve) => (answer = resolve));
    },
    onprogress: (progressId: string, listener: (checked: number) => void) => {
      listeners.set(progressId, listener);
      return () => listeners.delete(progressId);
    },
  });
  await user.type(screen.getByLabelText('Password', { exact: true }), 'lab-pw');
  await user.click(screen.getByRole('button', { name: 'Add 3 controllers' }));
  const status = screen.getByRole('status');
  expect(status).toHaveTextContent('Checked 0 of 3 controllers…');
  listeners.get(asked)!(2);
  await expect.poll(() => status.textContent).toBe('Checked 2 of 3 controllers…');
  expect(screen.getByRole('progressbar', { name: 'Controllers checked' })).toHaveAttribute('value', '2');
  answer({ ok: true, value: units.map((u, i) => added(u.url, `Rack ${i + 1}`)) });
  await expect.poll(() => screen.getByRole('status').textContent).toBe('3 of 3 controllers added.');
  // The run is over: it no longer listens.
  expect(listeners.size).toBe(0);
});

test('adds every selected controller with one password; certificates are accepted together', async () => {
  const user = userEvent.setup();
  const sent = renderBulk([
    [untrusted(units[0]!.url, FP1), untrusted(units[1]!.url, FP2), added(units[2]!.url, 'Rack 3')],
    [added(units[0]!.url, 'Rack 1'), added(units[1]!.url, 'Rack 2')],
  ]);
  await user.click(screen.getByRole('button', { name: 'Add 3 controllers' }));
  expect(screen.getByText('Enter the password.')).toBeVisible();
  expect(sent).toEqual([]);
  await user.type(screen.getByLabelText('Password'), 'lab-pw');
  await user.click(screen.getByRole('button', { name: 'Add 3 controllers' }));
  expect(sent[0]).toEqual({
    units: units.map(({ url }) => ({ url })),
    auth: { kind: 'digest', user: 'admin', password: 'lab-pw' },
  });
  const review = screen.getByRole('region', { name: /Check 2 certificates/ });
  expect(within(review).getByText(FP1.split(':').join(':'), { exact: false })).toBeVisible();
  expect(within(review).getAllByRole('row')).toHaveLength(3);
  const accept = within(review).getByRole('button', { name: 'Accept 2 certificates and add' });
  expect(accept).toHaveAttribute('aria-disabled', 'true');
  await user.click(accept);
  expect(sent).toHaveLength(1);
  await user.click(within(review).getByRole('checkbox', { name: /I compared these 2 fingerprints/ }));
  await user.click(accept);
  expect(sent[1]).toEqual({
    units: [
      { url: units[0]!.url, fingerprint: FP1 },
      { url: units[1]!.url, fingerprint: FP2 },
    ],
    auth: { kind: 'digest', user: 'admin', password: 'lab-pw' },
  });
  expect(screen.getByRole('status')).toHaveTextContent('3 of 3 controllers added.');
  const results = within(screen.getByRole('table', { name: 'Results' }))
    .getAllByRole('row')
    .slice(1);
  expect(results.map((tr) => tr.getAttribute('data-outcome'))).toEqual(['added', 'added', 'added']);
  expect(results[0]).toHaveTextContent('Added as “Rack 1”.');
  expect(screen.queryByRole('region', { name: /Check/ })).toBeNull();
});

test('a refused unit shows its own sentence; a CSV user gets a password field of its own', async () => {
  const user = userEvent.setup();
  const rows = [
    { url: 'http://10.0.0.1', label: 'Line 2: A' },
    { url: 'http://10.0.0.2', user: 'ops', label: 'Line 3: B' },
  ];
  const sent = renderBulk(
    [
      [
        added('http://10.0.0.1', 'A'),
        {
          url: 'http://10.0.0.2',
          name: null,
          added: null,
          error: { code: 'AUTH_FAILED', message: 'Wrong user name or password for 10.0.0.2 (user "ops").' },
        },
      ],
    ],
    { units: rows, users: ['ops'] },
  );
  await user.type(screen.getByLabelText('Password of “admin”'), 'admin-pw');
  await user.click(screen.getByRole('button', { name: 'Add 2 controllers' }));
  expect(screen.getByText('Enter the password of “ops”.')).toBeVisible();
  await user.type(screen.getByLabelText('Password of “ops”'), 'ops-pw');
  await user.click(screen.getByRole('button', { name: 'Add 2 controllers' }));
  expect(sent).toEqual([
    {
      units: [{ url: 'http://10.0.0.1' }, { url: 'http://10.0.0.2', user: 'ops' }],
      auth: { kind: 'digest', user: 'admin', password: 'admin-pw' },
      passwords: { ops: 'ops-pw' },
    },
  ]);
  expect(screen.getByRole('status')).toHaveTextContent('1 of 2 controllers added; 1 not added.');
  // Problems first: the refused one heads the results, and alone when only problems are asked for.
  const results = () =>
    within(screen.getByRole('table', { name: 'Results' }))
      .getAllByRole('row')
      .slice(1);
  const refused = results()[0]!;
  expect(refused).toHaveAttribute('data-outcome', 'refused');
  expect(refused).toHaveTextContent('http://10.0.0.2');
  expect(refused).toHaveTextContent('Wrong user name or password for 10.0.0.2 (user "ops").');
  expect(results()[1]).toHaveAttribute('data-outcome', 'added');
  await user.click(screen.getByRole('checkbox', { name: 'Show only problems' }));
  expect(results()).toHaveLength(1);
  // Only the refused one is offered again.
  expect(screen.getByRole('button', { name: 'Add 1 controller' })).toBeVisible();
});

test('the Add form says a wrong password once, under the button that stays put', async () => {
  const user = userEvent.setup();
  const message = 'Wrong user name or password for 10.0.0.7 (user "admin").';
  render(ManualAddForm, {
    colour: '#10b981',
    onadd: async (): Promise<Result<ControllerSummary>> => ({
      ok: false,
      error: { code: 'AUTH_FAILED', message, action: 'Check both and try again.' },
    }),
    onadded: () => undefined,
  });
  await user.type(screen.getByLabelText('Address'), '10.0.0.7');
  await user.type(screen.getByLabelText('Password'), 'wrong');
  const button = screen.getByRole('button', { name: 'Add this controller' });
  await user.click(button);
  const alert = screen.getByRole('alert');
  const text = alert.textContent ?? '';
  expect(text).toContain(message);
  expect(text).not.toContain('did not accept the user name or password');
  expect(text.match(/password/g)).toHaveLength(2);
  // The error comes after the button, so the button does not move down.
  expect(button.compareDocumentPosition(alert) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
});

test('a CSV file goes to main as text; a refused file says why, a good one shows each row', async () => {
  const user = userEvent.setup();
  const texts: string[] = [];
  const answers: Result<CsvImportPreview>[] = [
    {
      ok: false,
      error: {
        code: 'BAD_INPUT',
        message: 'The file has a "password" column: Plugboard never reads passwords or tokens from a file.',
        action: 'Remove that column; type the password once when you import.',
      },
    },
    {
      ok: true,
      value: {
        rows: [
          {
            line: 2,
            name: 'A',
            address: '10.0.0.1',
            url: 'http://10.0.0.1',
            user: '',
            tags: ['ci'],
            fingerprint: null,
            problems: [],
          },
          {
            line: 3,
            name: 'B',
            address: 'ftp://x',
            url: null,
            user: '',
            tags: [],
            fingerprint: null,
            problems: ['Not an address.'],
          },
        ],
        users: [],
      },
    },
  ];
  render(CsvImport, {
    onpreview: async (text: string) => {
      texts.push(text);
      return answers.shift()!;
    },
    onadd: async () => ({ ok: true, value: [] }),
  });
  const input = screen.getByLabelText('CSV file');
  await user.upload(
    input,
    new File(['name,address,password\nA,10.0.0.1,x\n'], 'secret.csv', { type: 'text/csv' }),
  );
  expect(await screen.findByRole('alert')).toHaveTextContent('The file was not imported.');
  expect(screen.getByRole('alert')).toHaveTextContent('"password" column');
  expect(screen.queryByRole('table')).toBeNull();
  await user.upload(
    input,
    new File(['name,address\nA,10.0.0.1\nB,ftp://x\n'], 'lab.csv', { type: 'text/csv' }),
  );
  const table = await screen.findByRole('table', { name: 'Rows in the file' });
  expect(texts).toEqual(['name,address,password\nA,10.0.0.1,x\n', 'name,address\nA,10.0.0.1\nB,ftp://x\n']);
  expect(within(table).getAllByRole('row')).toHaveLength(3);
  expect(table).toHaveTextContent('Not an address.');
  expect(screen.getByText('2 rows: 1 ready to add, 1 with problems (not added).')).toBeVisible();
  expect(screen.getByRole('button', { name: 'Add 1 controller' })).toBeVisible();
});
