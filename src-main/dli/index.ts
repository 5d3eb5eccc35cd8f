/** The controller client: see client.ts. Outlet numbers in and out are 1-based. */
export { DliClient } from './client';
export type { SetStateOptions } from './api-outlets';
export { PlugboardError, isPlugboardError } from '../shared/errors';
export { FIRMWARE_GATES, compareFirmware, firmwareCapabilities, parseFirmware, supports } from './firmware';
export type { GatedFeature } from './firmware';
export {
  CURRENT_EPSILON,
  JOULES_TO_KWH,
  KELVIN_OFFSET,
  celsiusToFahrenheit,
  joulesToKwh,
  kelvinToCelsius,
  kelvinToFahrenheit,
} from './meters';
export { accessFromNumbers, numbersFromAccess } from './outlet-numbers';
export { callExpression, luaLiteral } from './script-source';
export { isFingerprint, normalizeFingerprint } from './tls-pin';
export { parseBaseUrl } from './connection';
export type * from './types';
