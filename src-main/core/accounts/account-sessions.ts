/**
 * The sessions of the lab service's accounts, in the lab store.
 *
 * A session's token is 32 random bytes shown once to the client; the store keeps only its SHA-256 (a
 * random token needs no slow hash), so a copy of the store signs nobody in. A session ends 12 hours after
 * its last use (a working day, so a desk left overnight signs in again) and 7 days after sign-in whatever
 * happens (a token copied somewhere stops working within a week), when its account signs out, is revoked,
 * disabled, or removed. Every request reads the account again, so a new role or a disabling applies at once.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { Role, Scope } from '../../../src-preload/model';
import type { LabStore } from '../database/lab-store';
import type { AccountTable } from '../database/schema';
import type { Clock } from '../kernel/clock';
import { accountRole, parseScope } from './account-rules';

export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_MAX_MS = 7 * 24 * 3600_000;
/** A session's last use is written at most this often (not at every request). */
const TOUCH_MS = 60_000;
const TOKEN_PREFIX = 'pbs_';

/** Someone signed in: who, with which role and scope. */
export interface SignedIn {
  name: string;
  displayName: string;
  role: Role;
  scope: Scope;
}

export interface SignInResult {
  token: string;
  expiresAt: number;
  account: SignedIn;
}

/** The session rows: opened, found by token, ended; what signs in or out, and the log, is accounts.ts's. */
export class AccountSessions {
  readonly #db: LabStore['db'];
  readonly #clock: Clock;

  constructor(db: LabStore['db'], clock: Clock) {
    this.#db = db;
    this.#clock = clock;
  }

  /** A new session for the account `row`: its token (shown once), when it ends, and who it is. */
  async open(row: AccountTable, address: string): Promise<SignInResult> {
    const now = this.#clock.now();
    // The account's sessions that have ended are no use to anyone: the log keeps who signed in when.
    await this.#db
      .deleteFrom('account_session')
      .where('account', '=', row.name)
      .where((eb) =>
        eb.or([
          eb('revoked_at', 'is not', null),
          eb('expires_at', '<=', now),
          eb('last_used_at', '<=', now - SESSION_IDLE_MS),
        ]),
      )
      .execute();
    const token = TOKEN_PREFIX + randomBytes(32).toString('base64url');
    const signedAt = this.#clock.now();
    const expiresAt = signedAt + SESSION_MAX_MS;
    await this.#db
      .insertInto('account_session')
      .values({
        id_hash: tokenHash(token),
        account: row.name,
        created_at: signedAt,
        last_used_at: signedAt,
        expires_at: expiresAt,
        revoked_at: null,
        address: address.slice(0, 64),
      })
      .execute();
    return { token, expiresAt: Math.min(expiresAt, signedAt + SESSION_IDLE_MS), account: signedIn(row) };
  }

  /** Whose session `token` is, if it is one and live (its last use noted); null otherwise. */
  async find(token: string): Promise<SignedIn | null> {
    if (!token.startsWith(TOKEN_PREFIX)) return null;
    const now = this.#clock.now();
    const found = await this.#db
      .selectFrom('account_session')
      .innerJoin('account', 'account.name', 'account_session.account')
      .selectAll('account')
      .select([
        'account_session.id_hash',
        'account_session.last_used_at',
        'account_session.expires_at',
        'account_session.revoked_at',
      ])
      .where('account_session.id_hash', '=', tokenHash(token))
      .executeTakeFirst();
    if (!found || found.revoked_at !== null || found.disabled_at !== null || !isLive(found, now)) return null;
    if (now - found.last_used_at >= TOUCH_MS)
      await this.#db
        .updateTable('account_session')
        .set({ last_used_at: now })
        .where('id_hash', '=', found.id_hash)
        .execute();
    return signedIn(found);
  }

  /** End the session `token`. */
  async end(token: string): Promise<void> {
    await this.#db
      .updateTable('account_session')
      .set({ revoked_at: this.#clock.now() })
      .where('id_hash', '=', tokenHash(token))
      .execute();
  }

  /** End every session of the account `name`; how many were live. */
  async revokeAll(name: string): Promise<number> {
    const now = this.#clock.now();
    const rows = await this.#db
      .selectFrom('account_session')
      .select(['last_used_at', 'expires_at'])
      .where('account', '=', name)
      .where('revoked_at', 'is', null)
      .execute();
    const live = rows.filter((row) => isLive(row, now)).length;
    await this.#db
      .updateTable('account_session')
      .set({ revoked_at: now })
      .where('account', '=', name)
      .where('revoked_at', 'is', null)
      .execute();
    return live;
  }

  /** The sessions live at `now`, by account (one entry per session). */
  async live(now: number): Promise<{ account: string }[]> {
    const sessions = await this.#db
      .selectFrom('account_session')
      .select(['account', 'last_used_at', 'expires_at'])
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .execute();
    return sessions.filter((s) => isLive(s, now));
  }
}

function isLive(session: { last_used_at: number; expires_at: number }, now: number): boolean {
  return now < session.expires_at && now < session.last_used_at + SESSION_IDLE_MS;
}

export function signedIn(row: AccountTable): SignedIn {
  return {
    name: row.name,
    displayName: row.display_name,
    role: accountRole(row.role),
    scope: parseScope(row.scope),
  };
}

function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
