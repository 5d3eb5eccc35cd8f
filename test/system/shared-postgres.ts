/** The run's PostgreSQL (postgres-global-setup.ts) as a test uses it: a database of the test's own. */
import { inject } from 'vitest';
import { freshDatabase } from './postgres-cluster';

/** A new empty database on the run's cluster; fails, saying why, when the run has none. */
export function sharedPostgresDatabase(): Promise<string> {
  const provided = inject('postgres');
  if (!provided)
    throw new Error('No PostgreSQL: this file runs in the `system` project, whose global setup starts it.');
  if ('problem' in provided) throw new Error(`No PostgreSQL for this run: ${provided.problem}`);
  return freshDatabase(provided.url);
}
