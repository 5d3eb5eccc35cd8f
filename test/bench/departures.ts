/**
 * Departure stamps: the moment each HTTP request's headers are written to the socket, from undici's
 * `undici:client:sendHeaders` diagnostics channel (Plugboard's client uses undici; Node's own fetch,
 * used by the naive baseline, is undici too). Only method, origin and path are kept — never headers.
 */
import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { now } from './numbers';

export interface Departure {
  at: number;
  method: string;
  origin: string;
  path: string;
}

interface SendHeadersMessage {
  request: { method?: string; origin?: string | URL; path?: string };
}

export function recordDepartures(): { departures: Departure[]; stop(): void } {
  const departures: Departure[] = [];
  const listener = (message: unknown): void => {
    const { request } = message as SendHeadersMessage;
    departures.push({
      at: now(),
      method: String(request.method ?? ''),
      origin: String(request.origin ?? ''),
      path: String(request.path ?? ''),
    });
  };
  subscribe('undici:client:sendHeaders', listener);
  return { departures, stop: () => unsubscribe('undici:client:sendHeaders', listener) };
}

/** Milliseconds between the first and the last of these stamps (0 for one or none). */
export function spread(stamps: readonly { at: number }[]): number {
  if (stamps.length < 2) return 0;
  const times = stamps.map((s) => s.at);
  return Math.max(...times) - Math.min(...times);
}

export const isWrite = (method: string): boolean => method === 'PUT' || method === 'POST';
