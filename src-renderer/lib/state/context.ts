import { createContext } from 'svelte';
import type { AppState } from './app-state.svelte';

/** The app's state, shared from App.svelte with the few components that glue panels to it. */
export const [getAppState, setAppState] = createContext<AppState>();
