/**
 * The demo: software controllers started inside Plugboard to try it with, clearly marked.
 */
import type { ControllerSummary } from '../model';
import { call, empty } from './blocks';

export const demoCalls = {
  /** Start a few in-process emulated controllers, clearly marked as demo. */
  'demo/start': call(empty).returns<ControllerSummary[]>(),
  /** Remove every demo controller and stop its emulator. */
  'demo/remove': call(empty).returns<null>(),
} as const;
