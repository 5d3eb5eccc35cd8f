/**
 * People on the lab service: accounts, password sign-in and sessions, in the lab store.
 *
 * A session's token is 32 random bytes shown once to the client; the store keeps only its SHA-256 (a
 * random token needs no slow hash), so a copy of the store signs nobody in. A session ends 12 hours after
 * its last use (a working day, so a desk left overnight signs in again) and 7 days after sign-in whatever
 * happens (a token copied somewhere stops working within a week), when its account signs out, is revoked,
 * disabled, or removed. Every request reads the account again, so a new role or a disabling applies at once.
 *
 * Sign-in refusals never tell a stranger whether a name exists: a wrong name and a wrong password get the
 * same sentence and count the same towards the lock (sign-in-limits.ts); a disabled account says so only
 * to whoever gives its right password.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { AccountSummary, ActivityDoor, Role, Scope } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import type { Clock } from '../kernel/clock';
import type { LabStore } from '../database/lab-store';
import type { AccountTable } from '../database/schema';
import { accountName, accountRole, checkPassword, parseScope } from './account-rules';
import { assertKeepsAnAdmin, updateAccount, type AccountUpdate } from './account-changes';
import { hashIsWeak, hashPassword, verifyPassword } from './password-hash';
import { KeyedTurns } from './keyed-turns';
import { identityName, providerAccount, type ProviderIdentity } from './provider-accounts';
import { addressKey, nameKey, SignInLimits } from './sign-in-limits';
import { heldError, wrongError } from './sign-in-words';

export const SESSION_IDLE_MS = 12 * 3600_000;
export const SESSION_MAX_MS = 7 * 24 * 3600_000;
/** A session's last use is written at most this often (not at every request). */
const TOUCH_MS = 60_000;
const TOKEN_PREFIX = 'pbs_';
/** The turn every change that could leave the lab without an administrator of everything waits for. */
const ADMINS = 'administrators of everything';

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

/** What the activity log hears of sign-ins: `name` as given (folded), the client's address, the refusal. */
export interface SignInEvent {
  kind: 'signed in' | 'signed out' | 'sign-in refused';
  name: string;
  address: string;
  door: ActivityDoor;
  error?: PlugboardError;
}

export interface NewAccount {
  name: string;
  displayName?: string | undefined;
  role: string;
  scope: Scope;
  password?: string | undefined;
}

/** A hash of a password nobody has: a wrong name costs the same scrypt time as a wrong password. */
let decoy: Promise<string> | null = null;

export class Accounts {
  readonly #db: LabStore['db'];
  readonly #clock: Clock;
  readonly #record: (event: SignInEvent) => void;
  readonly #limits: SignInLimits;
  readonly #turns = new KeyedTurns();

  constructor(options: { store: LabStore; clock: Clock; record: (event: SignInEvent) => void }) {
    this.#db = options.store.db;
    this.#clock = options.clock;
    this.#record = options.record;
    this.#limits = new SignInLimits(this.#db);
  }

  async list(): Promise<AccountSummary[]> {
    const now = this.#clock.now();
    const rows = await this.#db.selectFrom('account').selectAll().orderBy('name').execute();
    const sessions = await this.#db
      .selectFrom('account_session')
      .select(['account', 'last_used_at', 'expires_at'])
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .execute();
    return rows.map((row) => ({
      ...signedIn(row),
      createdAt: row.created_at,
      disabled: row.disabled_at !== null,
      hasPassword: row.password_hash !== null,
      sessions: sessions.filter((s) => s.account === row.name && live(s, now)).length,
    }));
  }

  /** Whether any account may administer (the service's start-up says how to add the first one). */
  async hasAdmin(): Promise<boolean> {
    const row = await this.#db
      .selectFrom('account')
      .select('name')
      .where('role', '=', 'admin')
      .where('disabled_at', 'is', null)
      .executeTakeFirst();
    return row !== undefined;
  }

  async add(input: NewAccount): Promise<AccountSummary> {
    const name = accountName(input.name);
    const role = accountRole(input.role);
    if (input.password !== undefined) checkPassword(input.password);
    const existing = await this.#find(name);
    if (existing)
      throw new PlugboardError('BAD_INPUT', `An account named "${name}" already exists.`, undefined, {
        action: `Choose another name, or change this one's password with \`plugboard accounts passwd ${name}\`.`,
      });
    const row: AccountTable = {
      name,
      display_name: input.displayName?.trim() || name,
      role,
      scope: JSON.stringify(input.scope),
      password_hash: input.password === undefined ? null : await hashPassword(input.password),
      created_at: this.#clock.now(),
      disabled_at: null,
    };
    await this.#db.insertInto('account').values(row).execute();
    return (await this.list()).find((a) => a.name === name)!;
  }

  /** A new password; the account's sessions end and its failed tries are forgotten. */
  async setPassword(nameGiven: string, password: string): Promise<void> {
    checkPassword(password);
    const name = (await this.#existing(nameGiven)).name;
    const hash = await hashPassword(password);
    await this.#db.updateTable('account').set({ password_hash: hash }).where('name', '=', name).execute();
    await this.revoke(name);
    await this.#limits.forget(name);
  }

  /**
   * Change an account's display name, role or scope in place (what `input` leaves out stays): its
   * sessions act with the new role and scope from their next request. Answers it before and after.
   * Changes that could take away the last administrator of everything go one at a time, each reading
   * the account inside its turn (account-changes.ts).
   */
  async update(input: AccountUpdate): Promise<{ before: SignedIn; after: AccountSummary }> {
    const before = await this.#turns.run([ADMINS], async () => {
      const row = await this.#existing(input.name);
      await updateAccount(this.#db, row, input);
      return row;
    });
    return { before: signedIn(before), after: (await this.list()).find((a) => a.name === before.name)! };
  }

  async remove(nameGiven: string): Promise<void> {
    await this.#turns.run([ADMINS], async () => {
      const row = await this.#existing(nameGiven);
      await assertKeepsAnAdmin(this.#db, row, null, 'removed');
      await this.#db.deleteFrom('account_session').where('account', '=', row.name).execute();
      await this.#db.deleteFrom('account').where('name', '=', row.name).execute();
    });
  }

  /** Disable (its sessions end) or enable an account. */
  async setDisabled(nameGiven: string, disabled: boolean): Promise<void> {
    const name = await this.#turns.run([ADMINS], async () => {
      const row = await this.#existing(nameGiven);
      const at = disabled ? this.#clock.now() : null;
      await assertKeepsAnAdmin(this.#db, row, { ...row, disabled_at: at }, 'disabled');
      await this.#db.updateTable('account').set({ disabled_at: at }).where('name', '=', row.name).execute();
      return row.name;
    });
    if (disabled) await this.revoke(name);
    else await this.#limits.forget(name);
  }

  /** End every session of an account; how many were live. */
  async revoke(nameGiven: string): Promise<number> {
    const name = (await this.#existing(nameGiven)).name;
    const now = this.#clock.now();
    const live = await this.#liveSessions(name, now);
    await this.#db
      .updateTable('account_session')
      .set({ revoked_at: now })
      .where('account', '=', name)
      .where('revoked_at', 'is', null)
      .execute();
    return live;
  }

  /** Sign in with a password from `address`: a session, or AUTH_FAILED saying why (and until when). */
  async signIn(
    nameGiven: string,
    password: string,
    address: string,
    door: ActivityDoor = 'json-api',
  ): Promise<SignInResult> {
    const name = nameGiven.trim().toLowerCase().slice(0, 64);
    try {
      // One try at a time per name and per address: tries sent at once are counted one after another,
      // so a burst cannot get past the wait the first failures set.
      return await this.#turns.run([nameKey(name), addressKey(address)], () =>
        this.#signIn(name, password, address, door),
      );
    } catch (error) {
      if (error instanceof PlugboardError)
        this.#record({ kind: 'sign-in refused', name, address, door, error });
      throw error;
    }
  }

  async #signIn(name: string, password: string, address: string, door: ActivityDoor): Promise<SignInResult> {
    const now = this.#clock.now();
    const held = await this.#limits.held(name, address, now);
    if (held) throw heldError(held, now);
    const row = await this.#find(name);
    const stored = row?.password_hash ?? null;
    // Every wrong name or password costs one scrypt, so the time taken does not say which was wrong.
    const right = stored
      ? await verifyPassword(password, stored)
      : await verifyPassword(password, await (decoy ??= hashPassword(randomBytes(16).toString('hex'))));
    if (!row || !stored || !right) {
      const next = await this.#limits.failed(name, address, this.#clock.now());
      throw wrongError(next, this.#clock.now());
    }
    if (row.disabled_at !== null)
      throw new PlugboardError(
        'AUTH_FAILED',
        `The account "${row.name}" is disabled.`,
        { disabled: true },
        {
          action: "Ask the lab service's administrator to enable it (plugboard accounts enable).",
        },
      );
    await this.#limits.succeeded(name);
    if (hashIsWeak(stored))
      await this.#db
        .updateTable('account')
        .set({ password_hash: await hashPassword(password) })
        .where('name', '=', row.name)
        .execute();
    return this.#openSession(row, address, door);
  }

  /**
   * Sign in someone an identity provider vouched for (provider-accounts.ts finds or makes the account
   * and refreshes its role from the claims): the account, or AUTH_FAILED saying why, in the log either way.
   * The session is opened by `openSession` once the client collects it.
   */
  async providerSignIn(identity: ProviderIdentity, address: string, door: ActivityDoor): Promise<SignedIn> {
    try {
      return signedIn(
        await providerAccount(this.#db, identity, this.#clock.now(), (name) => this.revoke(name)),
      );
    } catch (error) {
      if (error instanceof PlugboardError)
        this.#record({ kind: 'sign-in refused', name: identityName(identity), address, door, error });
      throw error;
    }
  }

  /** A new session for the account `name` (it must exist and be enabled), logged as a sign-in. */
  async openSession(name: string, address: string, door: ActivityDoor): Promise<SignInResult> {
    const row = await this.#find(name);
    if (!row || row.disabled_at !== null)
      throw new PlugboardError('AUTH_FAILED', `The account "${name}" is disabled or was removed meanwhile.`);
    return this.#openSession(row, address, door);
  }

  async #openSession(row: AccountTable, address: string, door: ActivityDoor): Promise<SignInResult> {
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
    this.#record({ kind: 'signed in', name: row.name, address, door });
    return { token, expiresAt: Math.min(expiresAt, signedAt + SESSION_IDLE_MS), account: signedIn(row) };
  }

  /** Whose session `token` is, if it is one and live (its last use noted); null otherwise. */
  async session(token: string): Promise<SignedIn | null> {
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
    if (!found || found.revoked_at !== null || found.disabled_at !== null || !live(found, now)) return null;
    if (now - found.last_used_at >= TOUCH_MS)
      await this.#db
        .updateTable('account_session')
        .set({ last_used_at: now })
        .where('id_hash', '=', found.id_hash)
        .execute();
    return signedIn(found);
  }

  /** End the session `token` (its holder signing out); false when it was not a live one. */
  async signOut(token: string, address: string, door: ActivityDoor = 'json-api'): Promise<boolean> {
    const who = await this.session(token);
    if (!who) return false;
    await this.#db
      .updateTable('account_session')
      .set({ revoked_at: this.#clock.now() })
      .where('id_hash', '=', tokenHash(token))
      .execute();
    this.#record({ kind: 'signed out', name: who.name, address, door });
    return true;
  }

  async #find(name: string): Promise<AccountTable | undefined> {
    return this.#db.selectFrom('account').selectAll().where('name', '=', name).executeTakeFirst();
  }

  async #existing(nameGiven: string): Promise<AccountTable> {
    const row = await this.#find(accountName(nameGiven));
    if (!row)
      throw new PlugboardError('NOT_FOUND', `No account is named "${nameGiven.slice(0, 64)}".`, undefined, {
        action: 'See `plugboard accounts list`.',
      });
    return row;
  }

  async #liveSessions(name: string, now: number): Promise<number> {
    const rows = await this.#db
      .selectFrom('account_session')
      .select(['last_used_at', 'expires_at'])
      .where('account', '=', name)
      .where('revoked_at', 'is', null)
      .execute();
    return rows.filter((row) => live(row, now)).length;
  }
}

function live(session: { last_used_at: number; expires_at: number }, now: number): boolean {
  return now < session.expires_at && now < session.last_used_at + SESSION_IDLE_MS;
}

function signedIn(row: AccountTable): SignedIn {
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
