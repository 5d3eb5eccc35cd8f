/**
 * What a sign-in through the identity provider keeps between its steps, in memory and bounded:
 *
 * - a pending login, from `start` to the provider's `callback` (found by its state): at most 10 minutes
 *   (someone typing a password at the provider), at most 200 at once and 20 per client address, so a
 *   flood of starts cannot grow the service's memory; one refused is told to try again shortly;
 * - a one-time code, from the callback to the client's `exchange`: single use (taken out at its first
 *   try, right or wrong), 60 seconds, at most 200 at once; a desk's code is bound to the S256 challenge
 *   of a verifier only the desk knows, and a web page's too when it gave one (then a code slipped to
 *   another browser, to sign it in as someone else, is worthless there).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { PlugboardError } from '../shared/errors';
import type { ProviderChecks } from './oidc-relying-party';

export const PENDING_MS = 10 * 60_000;
export const CODE_MS = 60_000;
export const MAX_PENDING = 200;
export const MAX_PENDING_PER_ADDRESS = 20;
export const MAX_CODES = 200;

/**
 * Where the client wants the answer: the web window's sign-in page (bound to the tab that started it when
 * the page gives a challenge too), or a desk's loopback receiver (always bound to its challenge).
 */
export type OidcClient =
  { kind: 'web'; challenge?: string } | { kind: 'desk'; redirect: string; challenge: string };

export interface PendingLogin {
  client: OidcClient;
  checks: ProviderChecks;
  address: string;
  at: number;
}

export interface OneTimeCode {
  account: string;
  client: OidcClient;
  at: number;
}

export class OidcLogins {
  readonly #pending = new Map<string, PendingLogin>();
  readonly #codes = new Map<string, OneTimeCode>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Keep a login until its callback; refused (with a sentence) when too many are under way. */
  add(login: Omit<PendingLogin, 'at'>): void {
    const now = this.now();
    this.#prune(now);
    const fromThere = [...this.#pending.values()].filter((p) => p.address === login.address).length;
    if (this.#pending.size >= MAX_PENDING || fromThere >= MAX_PENDING_PER_ADDRESS)
      throw new PlugboardError(
        'AUTH_FAILED',
        `Too many sign-ins through the identity provider are under way${fromThere >= MAX_PENDING_PER_ADDRESS ? ' from your address' : ''}: try again in a few minutes.`,
        { retryAfterSeconds: 60 },
      );
    this.#pending.set(login.checks.state, { ...login, at: now });
  }

  /** The login whose state the callback carries, taken out (a state is good once); null when unknown. */
  take(state: string): PendingLogin | null {
    this.#prune(this.now());
    const login = this.#pending.get(state) ?? null;
    this.#pending.delete(state);
    return login;
  }

  /** A one-time code for a signed-in account, to give the client. */
  code(account: string, client: OidcClient): string {
    const now = this.now();
    this.#prune(now);
    // The oldest code goes first: it is the likeliest to be abandoned.
    while (this.#codes.size >= MAX_CODES) this.#codes.delete(this.#codes.keys().next().value!);
    const code = randomBytes(32).toString('base64url');
    this.#codes.set(code, { account, client, at: now });
    return code;
  }

  /**
   * The account a code signs in, checking the desk's verifier; a code is taken out at its first try,
   * so a replayed or guessed one finds nothing.
   */
  redeem(code: string, verifier: string | null): OneTimeCode {
    this.#prune(this.now());
    const found = this.#codes.get(code);
    this.#codes.delete(code);
    if (!found)
      throw new PlugboardError(
        'AUTH_FAILED',
        'This sign-in code is unknown, used already or expired (a code is good once, for a minute).',
        undefined,
        { action: 'Sign in through the identity provider again.' },
      );
    const challenge = found.client.challenge;
    if (challenge !== undefined) {
      const expected = Buffer.from(challenge);
      const given = Buffer.from(verifier === null ? '' : challengeOf(verifier));
      const whose = found.client.kind === 'desk' ? 'desk' : 'page';
      if (given.length !== expected.length || !timingSafeEqual(given, expected))
        throw new PlugboardError(
          'AUTH_FAILED',
          `This sign-in code was given to a ${whose}, and the verifier sent with it is not that ${whose}'s: the code is now spent.`,
          undefined,
          { action: `Sign in through the identity provider again, from the ${whose} itself.` },
        );
    }
    return found;
  }

  #prune(now: number): void {
    for (const [state, login] of this.#pending) if (now - login.at >= PENDING_MS) this.#pending.delete(state);
    for (const [code, entry] of this.#codes) if (now - entry.at >= CODE_MS) this.#codes.delete(code);
  }

  /** How many are kept now (for tests of the bounds). */
  get sizes(): { pending: number; codes: number } {
    return { pending: this.#pending.size, codes: this.#codes.size };
  }
}

/** PKCE S256: base64url(SHA-256(verifier)). */
export function challengeOf(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}
