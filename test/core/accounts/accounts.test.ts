/**
 * Accounts and sessions over the SQLite lab store (the PostgreSQL system test runs the same suite):
 * passwords kept as scrypt hashes, sessions that expire and end, failed sign-ins slowed then locked;
 * accounts changed in place, and the last administrator of everything kept.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach } from 'vitest';
import { openSqliteStore, type LabStore } from '../../../src-main/core/database/lab-store';
import { accountChangesSuite } from './account-changes-suite';
import { accountsSuite } from './accounts-suite';

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const open = async (): Promise<LabStore> => {
  const dir = await mkdtemp(join(tmpdir(), 'plugboard-accounts-'));
  const store = await openSqliteStore(join(dir, 'lab-store.sqlite'), '0.0.0-test');
  cleanups.push(
    () => rm(dir, { recursive: true, force: true }),
    () => store.close(),
  );
  return store;
};
accountsSuite(open);
accountChangesSuite(open);
