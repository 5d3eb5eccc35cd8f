/**
 * CSV import (issue 16 item 7): the preview reads name, address, user, tags (";"-separated) and an
 * optional fingerprint, with a problem per bad row; a password column is refused; the ready rows are
 * then added with one password per user, a result per row.
 */
import { afterEach, expect, it } from 'vitest';
import type { BulkAddResult, CsvImportPreview, Result } from '../../../src-preload/contract';
import { cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

const auth = { kind: 'digest', user: 'admin', password: '1234' };

it('previews every row with its problems, then adds the good ones with a result per row', async () => {
  const [a, b, c, saved] = await Promise.all([10, 11, 12, 13].map((i) => emulator({ host: `127.0.0.${i}` })));
  c!.device.addUser({ name: 'ops', password: 'ops-pw', isAdmin: true });
  const h = newCore();
  await h.ok('controllers/add', { url: saved!.url, name: 'Old bench', auth });
  const host = (u: string) => new URL(u).host;
  const text = [
    '\uFEFFName,Address,User,Tags',
    `Rack A,${host(a!.url)},,"rack 7; ci"`,
    `Rack B,http://${host(b!.url)},,bench`,
    `Rack C,${c!.url},ops,`,
    'Broken,ftp://10.0.0.1,,',
    `Again,${host(a!.url)},,`,
    `rack b,127.0.0.99:1,,`,
    `Known,${host(saved!.url)},,`,
    `Tagged,127.0.0.98:1,,"a,b"`,
    `Spaced,127.0.0.97:1,the user,`,
    '',
  ].join('\r\n');
  const preview = await h.ok<CsvImportPreview>('controllers/importPreview', { text });
  expect(preview.rows.map((r) => [r.line, r.name, r.problems.length])).toEqual([
    [2, 'Rack A', 0],
    [3, 'Rack B', 0],
    [4, 'Rack C', 0],
    [5, 'Broken', 1],
    [6, 'Again', 1],
    [7, 'rack b', 1],
    [8, 'Known', 1],
    [9, 'Tagged', 1],
    [10, 'Spaced', 1],
  ]);
  const byName = Object.fromEntries(preview.rows.map((r) => [r.name, r]));
  expect(byName['Rack A']!.tags).toEqual(['rack 7', 'ci']);
  expect(byName['Rack A']!.url).toBe(a!.url);
  expect(byName.Broken!.problems[0]).toContain('must start with http:// or https://');
  expect(byName.Again!.problems[0]).toBe('The address is also on line 2.');
  expect(byName['rack b']!.problems[0]).toBe('The name is also on line 3.');
  expect(byName.Known!.problems[0]).toContain('already saved as "Old bench"');
  expect(byName.Tagged!.problems[0]).toContain('without commas or semicolons');
  expect(byName.Spaced!.problems[0]).toContain('may not contain spaces');
  expect(preview.users).toEqual(['ops']);

  const ready = preview.rows.filter((r) => r.problems.length === 0);
  const results = await h.ok<BulkAddResult[]>('controllers/addMany', {
    units: ready.map((r) => ({
      url: r.url,
      name: r.name,
      tags: r.tags,
      ...(r.user ? { user: r.user } : {}),
    })),
    auth,
    passwords: { ops: 'ops-pw' },
  });
  expect(results.map((r) => [r.added?.name, r.added?.user, r.error])).toEqual([
    ['Rack A', 'admin', null],
    ['Rack B', 'admin', null],
    ['Rack C', 'ops', null],
  ]);
});

it('refuses a file with a password column, an unknown column or broken quoting, saying what to do', async () => {
  const h = newCore();
  const preview = (text: string) =>
    h.call<CsvImportPreview>('controllers/importPreview', { text }) as Promise<Result<CsvImportPreview>>;
  const secret = await preview('name,address,user,password\nA,10.0.0.1,admin,hunter2\n');
  expect(secret.ok).toBe(false);
  if (secret.ok) return;
  expect(secret.error.code).toBe('BAD_INPUT');
  expect(secret.error.message).toBe(
    'The file has a "password" column: Plugboard never reads passwords or tokens from a file.',
  );
  expect(secret.error.action).toContain('type the password once');
  expect(JSON.stringify(secret)).not.toContain('hunter2');
  for (const [text, words] of [
    ['name,address,Token\nA,10.0.0.1,x\n', '"Token" column'],
    ['name,address,rack\nA,10.0.0.1,7\n', 'column "rack" that Plugboard does not know'],
    ['name,tags\nA,x\n', 'no "address" column'],
    ['name,address\n"A,10.0.0.1\n', 'not valid CSV'],
    ['name,address\n', 'no controllers under it'],
    ['', 'The file is empty'],
  ] as const) {
    const result = await preview(text);
    expect(result.ok ? 'accepted' : result.error.message).toContain(words);
  }
});
