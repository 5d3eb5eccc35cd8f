/**
 * People on the lab service: accounts, password sign-in and sessions, in the lab store (the sessions'
 * tokens and how long they last: account-sessions.ts).
 *
 * Sign-in refusals never tell a stranger whether a name exists: a wrong name and a wrong password get the
 * same sentence and count the same towards the lock (sign-in-limits.ts); a disabled account says so only
 * to whoever gives its right password.
 */
import { randomBytes } from 'node:crypto';
import type { AccountSummary, ActivityDoor, Scope } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import type { Clock } from '../kernel/clock';
import type { LabStore } from '../database/lab-store';
import type { AccountTable } from '../database/schema';
import { accountName, accountRole, checkPassword } from './account-rules';
import { AccountSessions, signedIn, type SignedIn, type SignInResult } from './account-sessions';
import { assertKeepsAnAdmin, updateAccount, type AccountUpdate } from './account-changes';
import { hashIsWeak, hashPassword, verifyPassword } from './password-hash';
import { KeyedTurns } from './keyed-turns';
import { identityName, providerAccount, type ProviderIdentity } from './provider-accounts';
import { addressKey, nameKey, SignInLimits } from './sign-in-limits';
import { heldError, wrongError } from './sign-in-words';

export { SESSION_IDLE_MS, SESSION_MAX_MS, type SignedIn, type SignInResult } from './account-sessions';
/** The turn every change that could leave the lab without an administrator of everything waits for. */
const ADMINS = 'administrators of everything';

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
  readonly #sessions: AccountSessions;

  constructor(options: { store: LabStore; clock: Clock; record: (event: SignInEvent) => void }) {
    this.#db = options.store.db;
    this.#clock = options.clock;
    this.#record = options.record;
    this.#limits = new SignInLimits(this.#db);
    this.#sessions = new AccountSessions(this.#db, this.#clock);
  }

  async list(): Promise<AccountSummary[]> {
    const now = this.#clock.now();
    const rows = await this.#db.selectFrom('account').selectAll().orderBy('name').execute();
    const sessions = await this.#sessions.live(now);
    return rows.map((row) => ({
      ...signedIn(row),
      createdAt: row.created_at,
      disabled: row.disabled_at !== null,
      hasPassword: row.password_hash !== null,
      sessions: sessions.filter((s) => s.account === row.name).length,
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
    return this.#sessions.revokeAll((await this.#existing(nameGiven)).name);
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
    const opened = await this.#sessions.open(row, address);
    this.#record({ kind: 'signed in', name: row.name, address, door });
    return opened;
  }

  /** Whose session `token` is, if it is one and live (its last use noted); null otherwise. */
  async session(token: string): Promise<SignedIn | null> {
    return this.#sessions.find(token);
  }

  /** End the session `token` (its holder signing out); false when it was not a live one. */
  async signOut(token: string, address: string, door: ActivityDoor = 'json-api'): Promise<boolean> {
    const who = await this.session(token);
    if (!who) return false;
    await this.#sessions.end(token);
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
}
