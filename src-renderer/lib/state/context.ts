import { createContext } from 'svelte';
import { windowBackend, type Backend } from '../backend';
import type { AppState } from './app-state.svelte';

/**
 * The state of the Core whose page is shown (this computer's or a lab's), shared from the window's main
 * area with the components that glue panels to it.
 */
export const [getAppState, setAppState, hasAppState] = createContext<AppState>();

/** The backend of the Core whose page is shown; the window's own without one (a bare component's test). */
export function sectionBackend(): Backend | null {
  return hasAppState() ? getAppState().api : windowBackend();
}
