/** JSON values as the controller sends and receives them. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * An answer other than success, thrown anywhere below the router and turned into a small JSON body
 * `{"error": code, "message": sentence}` (plus `extra` members) with `status`.
 */
export class HttpError extends Error {
  readonly status: number;
  readonly code: string;
  readonly extra: Record<string, Json>;
  readonly headers: Record<string, string>;

  constructor(
    status: number,
    code: string,
    message: string,
    extra: Record<string, Json> = {},
    headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'HttpError';
    this.status = status;
    this.code = code;
    this.extra = extra;
    this.headers = headers;
  }

  /** The response body. */
  body(): { [key: string]: Json } {
    return { error: this.code, message: this.message, ...this.extra };
  }

  /**
   * The short form used for one element of a 207 answer: `{"status":409,"error":"locked"}`, or
   * `{"error":"locked"}` where a unit leaves the status out.
   */
  element(withStatus = true): { status?: number; error: string } {
    return withStatus ? { status: this.status, error: this.code } : { error: this.code };
  }
}

export const badRequest = (message: string, code = 'bad_request'): HttpError =>
  new HttpError(400, code, message);
export const forbidden = (message: string, code = 'forbidden'): HttpError =>
  new HttpError(403, code, message);
export const notFound = (message = 'There is no such resource on this controller.'): HttpError =>
  new HttpError(404, 'not_found', message);
export const conflict = (code: string, message: string, extra: Record<string, Json> = {}): HttpError =>
  new HttpError(409, code, message, extra);
export const methodNotAllowed = (allow: string[], message?: string): HttpError =>
  new HttpError(
    405,
    'method_not_allowed',
    message ?? `This resource only accepts ${allow.join(', ')}.`,
    {},
    {
      Allow: allow.join(', '),
    },
  );
export const locked = (outlet: number): HttpError =>
  conflict(
    'locked',
    `Outlet ${outlet + 1} is locked; only the keypad or the controller's own page can change it.`,
  );
