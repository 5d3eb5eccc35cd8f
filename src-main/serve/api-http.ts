/*
 * The JSON API's HTTP terms: the request's path read safely, the methods a path allows, and the Core's
 * errors as HTTP statuses (with the API's own refusals, which carry theirs).
 */
import type { IncomingMessage } from 'node:http';
import { PlugboardError } from '../shared/errors';

/** The largest request body the API reads (a sign-in, a switch): a few fields. */
const MAX_BODY = 4096;

/** The request target as a URL; one no URL parser reads is the client's mistake, not ours. */
export function requestUrl(target: string): URL {
  try {
    return new URL(target, 'http://api.invalid');
  } catch {
    throw new PlugboardError(
      'BAD_INPUT',
      `The request target ${JSON.stringify(target.slice(0, 80))} is not a path: send /api/v1/controllers.`,
    );
  }
}

export function decodePart(part: string, path: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new PlugboardError(
      'BAD_INPUT',
      `The path ${JSON.stringify(path.slice(0, 80))} has a malformed percent-encoding: write a "%" as %25, and other characters as %XX with two hexadecimal digits.`,
    );
  }
}

export function allow(method: string, methods: string[]): void {
  if (!methods.includes(method))
    throw new ApiError(405, 'BAD_INPUT', `${method} is not allowed here; use ${methods.join(' or ')}.`, {
      Allow: methods.join(', '),
    });
}

/** A refusal of the API itself (no token, wrong method), with its HTTP status and headers. */
export class ApiError extends PlugboardError {
  constructor(
    readonly status: number,
    code: 'AUTH_FAILED' | 'BAD_INPUT' | 'FORBIDDEN',
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(code, message);
  }
}

/** The HTTP status for the Core's error codes: the unit's troubles are a bad gateway, not the client's. */
export function statusOf(code: string): number {
  switch (code) {
    case 'BAD_INPUT':
      return 400;
    case 'FORBIDDEN':
      return 403;
    case 'NOT_FOUND':
      return 404;
    case 'LOCKED':
    case 'CANCELLED':
    case 'RESERVED':
    case 'CRITICAL_UNCONFIRMED': // the same request with "confirmCritical": true would be done; 403 is a role's
      return 409;
    case 'UNREACHABLE':
    case 'AUTH_FAILED':
    case 'DEVICE_ERROR':
    case 'TLS_CHANGED':
    case 'TLS_UNTRUSTED':
    case 'API_DISABLED':
    case 'NOT_A_CONTROLLER':
    case 'UNSUPPORTED_FIRMWARE':
      return 502;
    case 'TIMEOUT':
      return 504;
    case 'STORE':
    case 'STANDBY': // another service leads the lab: the body names it and its address
      return 503;
    case 'INTERNAL':
      return 500;
    default:
      return 409; // the Core's other refusals are conflicts with its state
  }
}

/**
 * A request's body read as JSON, refused (BAD_INPUT) past MAX_BODY. A body that is not JSON reads as {}:
 * the caller then says what it wanted.
 */
export async function readJsonBody<T extends object>(request: IncomingMessage): Promise<T> {
  let body = '';
  for await (const chunk of request) {
    body += String(chunk);
    if (body.length > MAX_BODY)
      throw new PlugboardError('BAD_INPUT', `The request body is over ${MAX_BODY} bytes.`);
  }
  try {
    return (JSON.parse(body) as T | null) ?? ({} as T);
  } catch {
    return {} as T;
  }
}
