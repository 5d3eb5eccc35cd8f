/** Provider accounts over PostgreSQL (the run's cluster, a database per test): the same suite as SQLite's. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';
import { sharedPostgresDatabase } from '../system/shared-postgres';
import { providerAccountsSuite } from './oidc-accounts-suite';

const dir = mkdtempSync(join(tmpdir(), 'plugboard-oidc-pg-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

providerAccountsSuite(
  async () => ({ PLUGBOARD_DATABASE_URL: await sharedPostgresDatabase() }),
  () => dir,
);
