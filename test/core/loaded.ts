/**
 * The backstop for a wait on a condition the test polls (vi.waitFor, expect.poll): far above how long the
 * condition takes to hold on a machine busy with other work, so only a hang reaches it. Vitest's own
 * default (one second) is not: a loaded machine can take longer than that for real work.
 */
export const LOADED = { timeout: 15_000, interval: 10 };
