/**
 * Global setup of the `system` project: one PostgreSQL cluster for the run (postgres-cluster.ts),
 * provided as `postgres`; without Debian's postgresql the run goes on, and the tests that need it fail
 * saying why.
 */
import type { TestProject } from 'vitest/node';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let cluster: PostgresCluster | null = null;
  try {
    cluster = await startPostgresCluster();
    project.provide('postgres', { url: cluster.url });
  } catch (error) {
    project.provide('postgres', { problem: error instanceof Error ? error.message : String(error) });
  }
  return async () => {
    await cluster?.stop();
  };
}
