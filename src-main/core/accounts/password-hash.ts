/**
 * Passwords as slow salted hashes: scrypt from node:crypto, a random 16-byte salt per password, and the
 * parameters written with the hash (`scrypt$N$r$p$salt$hash`, base64url), so a later Plugboard can raise
 * them and still check the hashes it wrote before. Checked in constant time. A password is never kept,
 * logged or put in an error: only this hash is.
 */
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

export interface ScryptParameters {
  /** CPU and memory cost, a power of two. */
  N: number;
  r: number;
  p: number;
}

/** About 100 ms and 32 MiB a hash on a laptop: the cost OWASP names for scrypt, met with room to grow. */
export const SCRYPT_PARAMETERS: ScryptParameters = { N: 2 ** 15, r: 8, p: 1 };
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;
/** The largest cost a stored hash may ask for: a store that names more is refused, not obeyed. */
const MAX_N = 2 ** 20;

function derive(password: string, salt: Buffer, parameters: ScryptParameters): Promise<Buffer> {
  const options: ScryptOptions = {
    ...parameters,
    // scrypt needs 128·N·r bytes; Node's default ceiling (32 MiB) is just below what N=2^15, r=8 uses.
    maxmem: 256 * parameters.N * parameters.r,
  };
  return new Promise((resolve, reject) =>
    scrypt(password.normalize('NFC'), salt, KEY_LENGTH, options, (error, key) =>
      error ? reject(error) : resolve(key),
    ),
  );
}

/** The hash to store for `password`, with a fresh salt and the given (default: current) parameters. */
export async function hashPassword(
  password: string,
  parameters: ScryptParameters = SCRYPT_PARAMETERS,
): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, parameters);
  const { N, r, p } = parameters;
  return ['scrypt', N, r, p, salt.toString('base64url'), key.toString('base64url')].join('$');
}

/** Whether `password` is the one `stored` was made from; a hash this Plugboard cannot read never matches. */
export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const parsed = parseHash(stored);
  if (!parsed) return false;
  const key = await derive(password, parsed.salt, parsed.parameters);
  return key.length === parsed.key.length && timingSafeEqual(key, parsed.key);
}

/** Whether `stored` was made with weaker parameters than today's (to hash again at the next sign-in). */
export function hashIsWeak(stored: string): boolean {
  const parsed = parseHash(stored);
  return !parsed || parsed.parameters.N < SCRYPT_PARAMETERS.N || parsed.parameters.r < SCRYPT_PARAMETERS.r;
}

function parseHash(stored: string): { parameters: ScryptParameters; salt: Buffer; key: Buffer } | null {
  const [kind, n, r, p, salt, key, ...rest] = stored.split('$');
  if (kind !== 'scrypt' || rest.length > 0 || !salt || !key) return null;
  const parameters = { N: Number(n), r: Number(r), p: Number(p) };
  const valid =
    Number.isInteger(parameters.N) &&
    parameters.N > 1 &&
    parameters.N <= MAX_N &&
    (parameters.N & (parameters.N - 1)) === 0 &&
    Number.isInteger(parameters.r) &&
    parameters.r >= 1 &&
    parameters.r <= 32 &&
    Number.isInteger(parameters.p) &&
    parameters.p >= 1 &&
    parameters.p <= 16;
  return valid
    ? { parameters, salt: Buffer.from(salt, 'base64url'), key: Buffer.from(key, 'base64url') }
    : null;
}
