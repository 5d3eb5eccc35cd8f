/** Accounts and sessions over PostgreSQL (the run's cluster, a database per test): the same suite as SQLite's. */
import { afterEach } from 'vitest';
import { openPostgresStore, type LabStore } from '../../../src-main/core/database/lab-store';
import { sharedPostgresDatabase } from '../../system/shared-postgres';
import { accountChangesSuite } from './account-changes-suite';
import { accountsSuite } from './accounts-suite';

const opened: LabStore[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((store) => store.close()));
});

const open = async () => {
  const store = await openPostgresStore(await sharedPostgresDatabase(), '0.0.0-test');
  opened.push(store);
  return store;
};
accountsSuite(open);
accountChangesSuite(open);
