/**
 * The lab store's tables as Kysely sees them: one schema for both engines (migrations.ts creates it).
 * Times are epoch milliseconds and ids are activity ids (activity-ids.ts): integers both engines keep
 * exactly (PostgreSQL's bigint is read back as a number, lab-store.ts).
 */
import type { Generated } from 'kysely';

/** Which migrations have run: one row, the schema's version and the Plugboard that wrote it. */
export interface SchemaTable {
  id: number;
  version: number;
  written_by: string;
}

/** The activity log: one row per entry, written once (a counted refusal's count and last time grow). */
export interface ActivityTable {
  id: number;
  time: number;
  controller_id: string;
  controller_name: string;
  outlet: number | null;
  outlet_name: string | null;
  action: string;
  door: string;
  who: string | null;
  /** `who` folded to lower case by Plugboard (the same folding on both engines): what filters match. */
  who_folded: string | null;
  result: string;
  /** The error as JSON (code, message, action, detail), or null. */
  error: string | null;
  batch: number | null;
  count: number | null;
  /** A counted refusal's last time; else its time: what a range's start is compared with. */
  last_time: number;
}

/** A reservation as taken (its target's columns by kind: outlet, controller or group). */
export interface ReservationTable {
  id: string;
  kind: string;
  controller_id: string | null;
  outlet: number | null;
  group_id: string | null;
  holder: string;
  door: string;
  reason: string;
  created_at: number;
  expires_at: number;
}

/** One outlet a reservation covers (outlet null: the whole controller), with its holder and times. */
export interface ReservationCellTable {
  reservation_id: string;
  controller_id: string;
  outlet: number | null;
  holder: string;
  created_at: number;
  expires_at: number;
}

/** A sequence run as last written: by which machine and process, and the run itself as JSON. */
export interface SequenceRunTable {
  run_id: string;
  host: string;
  pid: number;
  started_at: number;
  updated_at: number;
  status: string;
  run: string;
}

/**
 * One key of the lab's configuration (controllers, groups, settings) on PostgreSQL: its value as JSON
 * (null: forgotten), the revision of the write that last changed it, when and by which service.
 */
export interface LabConfigTable {
  key: string;
  value: string | null;
  revision: number;
  written_at: number;
  written_by: string;
}

/**
 * An outlet switched off by a delayed cycle that promised to switch it back on, from just before the off
 * until the on was sent: by whom (door, who) and when, by which machine and process.
 */
export interface PromisedSwitchTable {
  id: string;
  controller_id: string;
  controller_name: string;
  outlet: number;
  outlet_name: string | null;
  /** What was promised, in words ("cycle: off for 5 s"). */
  what: string;
  door: string;
  who: string;
  asked_at: number;
  /** When the outlet was to be switched back on. */
  due_at: number;
  host: string;
  pid: number;
}

/**
 * The lease that says which service leads the lab (PostgreSQL; one row, id 1): its holder's name, the
 * address clients use for it, the process that holds it (a name may come back after a restart), a
 * fencing counter that grows at each change of holder, and when it ends by the database's clock.
 */
export interface ServiceLeaseTable {
  id: number;
  holder: string | null;
  holder_address: string | null;
  holder_token: string | null;
  epoch: number;
  expires_at: number;
}

/**
 * A person (or a machine client) who signs in: a name folded to lower case, a role, the scope the role
 * applies in (the contract's Scope as JSON), the password's scrypt hash with its parameters (null: the
 * account signs in another way), and since when it is disabled (null: it is not).
 */
export interface AccountTable {
  name: string;
  display_name: string;
  role: string;
  scope: string;
  password_hash: string | null;
  created_at: number;
  disabled_at: number | null;
}

/**
 * A signed-in session: the SHA-256 of its token (never the token), whose it is, when it began, was last
 * used and ends at the latest, whether it was revoked, and the client's address at sign-in.
 */
export interface AccountSessionTable {
  id_hash: string;
  account: string;
  created_at: number;
  last_used_at: number;
  expires_at: number;
  revoked_at: number | null;
  address: string;
}

/** An account's identity at an OpenID provider: the issuer's URL and the subject it gives the person. */
export interface AccountIdentityTable {
  issuer: string;
  subject: string;
  account: string;
}

/** Failed sign-ins lately for one name tried (`name:…`) or one client address (`address:…`). */
export interface SignInFailureTable {
  key: string;
  failures: number;
  last_at: number;
  locked_until: number;
}

export interface LabSchema {
  plugboard_schema: SchemaTable;
  activity: ActivityTable;
  reservation: ReservationTable;
  reservation_cell: ReservationCellTable;
  sequence_run: SequenceRunTable;
  lab_config: LabConfigTable;
  promised_switch: PromisedSwitchTable;
  service_lease: ServiceLeaseTable;
  account: AccountTable;
  account_session: AccountSessionTable;
  sign_in_failure: SignInFailureTable;
  account_identity: AccountIdentityTable;
}

/** A row to insert: the same columns, none generated by the database. */
export type NewRow<T> = { [K in keyof T]: T[K] extends Generated<infer V> ? V : T[K] };
