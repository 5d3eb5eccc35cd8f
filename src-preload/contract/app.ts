/**
 * The window as a whole: what is running, and everything to draw the window at start.
 */
import type { AppInfo, AppSnapshot } from '../model';
import { call, empty } from './blocks';

export const appCalls = {
  /** Name, version and shell of the running app. */
  'app/info': call(empty).returns<AppInfo>(),
  /** Everything to draw the window at start: controllers, their live state, groups, settings. */
  'app/snapshot': call(empty).returns<AppSnapshot>(),
} as const;
