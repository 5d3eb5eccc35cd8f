import type { IncomingMessage } from 'node:http';
import { badRequest, HttpError } from './http-error';

/** Larger request bodies are refused with 413; nothing the API takes comes close. */
export const MAX_BODY_BYTES = 64 * 1024;

/**
 * A request body after content negotiation: one value (form `value=…`, raw JSON, or text), several
 * form fields (PATCH), JSON-patch operations, or nothing.
 */
export type Body =
  | { kind: 'none' }
  | { kind: 'value'; value: unknown }
  | { kind: 'fields'; fields: Record<string, unknown> }
  | { kind: 'patch'; ops: unknown };

export function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length'] ?? 0);
    if (declared > limit) {
      reject(tooLarge(limit));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        reject(tooLarge(limit));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    // A body cut off or garbled on the wire (aborted upload, broken chunking).
    const onError = (): void => {
      cleanup();
      reject(badRequest('The request body was cut off or garbled.', 'bad_body'));
    };
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}

function tooLarge(limit: number): HttpError {
  return new HttpError(413, 'too_large', `Request bodies are limited to ${limit} bytes.`);
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

function text(buffer: Buffer): string {
  try {
    return utf8.decode(buffer);
  } catch {
    throw badRequest('The request body is not valid UTF-8.', 'bad_body');
  }
}

function parseJson(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch (error) {
    throw badRequest(`The request body is not valid JSON (${(error as Error).message}).`, 'bad_body');
  }
}

/** A form or text value: JSON when it parses (`true`, `3`, `"x"`), otherwise the plain string. */
function jsonOrString(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch {
    return source;
  }
}

export function parseBody(contentType: string | undefined, buffer: Buffer): Body {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (buffer.length === 0) return { kind: 'none' };
  const source = text(buffer);
  switch (type) {
    case 'application/x-www-form-urlencoded': {
      const form = new URLSearchParams(source);
      const fields: Record<string, unknown> = {};
      for (const [key, value] of form) {
        if (Object.hasOwn(fields, key))
          throw badRequest(`The form field "${key}" appears twice.`, 'bad_body');
        fields[key] = jsonOrString(value);
      }
      const keys = Object.keys(fields);
      if (keys.length === 1 && keys[0] === 'value') return { kind: 'value', value: fields.value };
      if (keys.length === 0) return { kind: 'none' };
      return { kind: 'fields', fields };
    }
    case 'application/json':
      return { kind: 'value', value: parseJson(source) };
    case 'application/json-patch+json':
      return { kind: 'patch', ops: parseJson(source) };
    case '':
    case 'text/plain':
    case 'text/x-lua': {
      const trimmed = source.trim();
      return trimmed === ''
        ? { kind: 'none' }
        : { kind: 'value', value: type === 'text/x-lua' ? source : jsonOrString(trimmed) };
    }
    default:
      throw new HttpError(
        415,
        'unsupported_media_type',
        `Bodies of type ${type} are not understood; send application/x-www-form-urlencoded (value=…), application/json or text/plain.`,
      );
  }
}
