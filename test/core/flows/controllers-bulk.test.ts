/**
 * Bulk add (issue 16 item 7) of HTTPS units and the refusals per unit: every certificate to accept comes
 * back together, then the units are added pinned; a unit listed twice, already saved, not a controller or
 * named with a user without a password is refused alone. The 30-unit add with the real keychain is in
 * controllers-bulk-keychain.system.test.ts. A run given a progressId counts its units aloud as they are checked.
 */
import { afterEach, expect, it } from 'vitest';
import type { BulkAddResult, ControllerSummary } from '../../../src-preload/contract';
import { cleanUp, emulator, newCore } from '../harness';

afterEach(cleanUp);

it('returns every HTTPS certificate to accept together, then adds them pinned', async () => {
  const units = await Promise.all([10, 11, 12].map((i) => emulator({ host: `127.0.0.${i}`, tls: true })));
  const h = newCore();
  const auth = { kind: 'digest', user: 'admin', password: '1234' };
  const first = await h.ok<BulkAddResult[]>('controllers/addMany', {
    units: units.map((u) => ({ url: u.url })),
    auth,
  });
  expect(first.map((r) => r.error?.code)).toEqual(['TLS_UNTRUSTED', 'TLS_UNTRUSTED', 'TLS_UNTRUSTED']);
  const fingerprints = first.map((r) => r.error!.detail!.fingerprint as string);
  expect(new Set(fingerprints).size).toBe(3);
  expect(await h.ok<ControllerSummary[]>('controllers/list', {})).toEqual([]);
  // Nothing was logged in to before the certificates were accepted.
  for (const unit of units) expect(unit.device.stats.unauthorized).toBe(0);

  const second = await h.ok<BulkAddResult[]>('controllers/addMany', {
    units: first.map((r, i) => ({ url: r.url, fingerprint: fingerprints[i] })),
    auth,
  });
  expect(second.map((r) => r.error)).toEqual([null, null, null]);
  expect(second.map((r) => r.added!.fingerprint)).toEqual(fingerprints);
  // A fingerprint given for the wrong unit is refused for that unit only.
  const other = await emulator({ host: '127.0.0.13', tls: true });
  const third = await h.ok<BulkAddResult[]>('controllers/addMany', {
    units: [{ url: other.url, fingerprint: fingerprints[0] }],
    auth,
  });
  expect(third[0]!.error!.code).toBe('TLS_CHANGED');
});

it('refuses per unit: listed twice, already saved, not a controller, a user without a password', async () => {
  const [a, b, c] = await Promise.all([10, 11, 12].map((i) => emulator({ host: `127.0.0.${i}` })));
  c!.device.addUser({ name: 'bob', password: 'bobs-pw', isAdmin: true });
  const h = newCore();
  const auth = { kind: 'digest', user: 'admin', password: '1234' };
  await h.ok('controllers/addMany', { units: [{ url: a!.url, name: 'Bench A' }], auth });
  const { createServer } = await import('node:http');
  const web = createServer((_req, res) => {
    res.writeHead(403, { 'content-type': 'text/html' });
    res.end('<html><title>403 Forbidden</title></html>');
  });
  await new Promise<void>((resolve) => web.listen(0, '127.0.0.1', resolve));
  const webUrl = `http://127.0.0.1:${(web.address() as { port: number }).port}`;
  try {
    const results = await h.ok<BulkAddResult[]>('controllers/addMany', {
      units: [
        { url: a!.url },
        { url: b!.url },
        { url: `${b!.url}/` },
        { url: webUrl },
        { url: c!.url, user: 'bob' },
        { url: c!.url.replace('127.0.0.12', '127.0.0.14'), user: 'carol' },
      ],
      auth,
      passwords: { bob: 'bobs-pw' },
    });
    expect(results.map((r) => r.error?.code ?? 'added')).toEqual([
      'BAD_INPUT',
      'added',
      'BAD_INPUT',
      'NOT_A_CONTROLLER',
      'added',
      'BAD_INPUT',
    ]);
    expect(results[0]!.error!.message).toContain('already saved as "Bench A"');
    expect(results[2]!.error!.message).toContain('listed twice');
    expect(results[5]!.error!.message).toContain('No password was given for user "carol"');
    expect(results[4]!.added!.user).toBe('bob');
  } finally {
    await new Promise((resolve) => web.close(resolve));
  }
});

it('counts the units it has checked, added or refused, for the run that asked', async () => {
  const units = await Promise.all([10, 11, 12, 13].map((i) => emulator({ host: `127.0.0.${i}` })));
  const h = newCore();
  const auth = { kind: 'digest', user: 'admin', password: '1234' };
  const results = await h.ok<BulkAddResult[]>('controllers/addMany', {
    units: [...units.map((u) => ({ url: u.url })), { url: units[0]!.url }],
    auth,
    progressId: 'run-1',
  });
  expect(results.map((r) => r.error?.code ?? 'added')).toEqual([
    'added',
    'added',
    'added',
    'added',
    'BAD_INPUT',
  ]);
  const counts = h.all('controllers/addManyProgress');
  // One event per unit, the refused one too, each counting one more, all for this run.
  expect(counts.map((c) => c.checked)).toEqual([1, 2, 3, 4, 5]);
  expect(counts.every((c) => c.progressId === 'run-1' && c.total === 5)).toBe(true);
  // Without a name for the run, nothing is counted aloud.
  await h.ok('controllers/addMany', { units: [{ url: units[1]!.url }], auth });
  expect(h.all('controllers/addManyProgress')).toHaveLength(5);
});
