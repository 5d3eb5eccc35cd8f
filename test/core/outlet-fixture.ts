import type { Outlet } from '../../src-main/dli/types';

/** Outlet 3, "Scope", off in every state, unlocked: a client-side outlet record for pure Core tests. */
export const outlet = (patch: Partial<Outlet> = {}): Outlet => ({
  number: 3,
  name: 'Scope',
  state: false,
  transientState: false,
  physicalState: false,
  locked: false,
  critical: false,
  cycleDelay: null,
  ...patch,
});
