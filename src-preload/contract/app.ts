/**
 * The window as a whole: what is running, and everything to draw the window at start.
 */
import type { AppInfo, AppSnapshot, CallerInfo } from '../model';
import { call, empty } from './blocks';

export const appCalls = {
  /** Name, version and shell of the running app. */
  'app/info': call(empty).returns<AppInfo>(),
  /** Everything to draw the window at start: controllers, their live state, groups, settings. */
  'app/snapshot': call(empty).returns<AppSnapshot>(),
  /** Who the Core takes the caller to be: name, display name, role and scope, door. */
  'app/whoami': call(empty).returns<CallerInfo>(),
} as const;
