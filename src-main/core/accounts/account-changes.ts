/**
 * An account changed in place (display name, role, scope), and the rule every change of an account
 * obeys: a lab keeps one administrator of everything. Removing, disabling, demoting or limiting the
 * last enabled administrator whose scope is everything is refused with a sentence saying what to do
 * first, so nobody can lock the lab's people out of managing it from a window or a remote CLI.
 */
import type { Role, Scope } from '../../../src-preload/model';
import { PlugboardError } from '../../shared/errors';
import type { LabStore } from '../database/lab-store';
import type { AccountTable } from '../database/schema';
import { accountRole, parseScope } from './account-rules';

export interface AccountUpdate {
  name: string;
  /** Empty: the account's name. */
  displayName?: string | undefined;
  role?: string | undefined;
  scope?: Scope | undefined;
}

/** What an account would be after a change; null: it would be gone (removed). */
type After = Pick<AccountTable, 'role' | 'scope' | 'disabled_at'> | null;

function administersAll(row: Pick<AccountTable, 'role' | 'scope' | 'disabled_at'>): boolean {
  return row.role === 'admin' && row.disabled_at === null && parseScope(row.scope).kind === 'all';
}

/**
 * Refuse (BAD_INPUT) a change that would leave the lab without an enabled administrator of
 * everything: `row` is one now, `after` would not be, and no other account is. `doing` finishes
 * "so it cannot be …" ("removed", "made an operator").
 */
export async function assertKeepsAnAdmin(
  db: LabStore['db'],
  row: AccountTable,
  after: After,
  doing: string,
): Promise<void> {
  if (!administersAll(row) || (after && administersAll(after))) return;
  const admins = await db
    .selectFrom('account')
    .select(['name', 'role', 'scope', 'disabled_at'])
    .where('role', '=', 'admin')
    .where('disabled_at', 'is', null)
    .where('name', '!=', row.name)
    .execute();
  if (admins.some(administersAll)) return;
  throw new PlugboardError(
    'BAD_INPUT',
    `${row.name} is the last administrator of everything: a lab keeps one, so it cannot be ${doing}.`,
    { lastAdmin: row.name },
    {
      action:
        'Make another account an administrator of everything first (plugboard accounts set NAME --role admin --everywhere, or add one).',
    },
  );
}

/** What a change that leaves no administrator of everything does to one ("made an operator", "limited …"). */
function doingWords(role: Role): string {
  return role === 'admin' ? 'limited to part of the lab' : `made an ${role}`;
}

/** Change `row` in place as `input` says (what is absent stays); answers the row as it now is. */
export async function updateAccount(
  db: LabStore['db'],
  row: AccountTable,
  input: AccountUpdate,
): Promise<AccountTable> {
  const role = input.role === undefined ? accountRole(row.role) : accountRole(input.role);
  const next: AccountTable = {
    ...row,
    role,
    scope: input.scope === undefined ? row.scope : JSON.stringify(input.scope),
    display_name: input.displayName === undefined ? row.display_name : input.displayName.trim() || row.name,
  };
  await assertKeepsAnAdmin(db, row, next, doingWords(role));
  await db
    .updateTable('account')
    .set({ role: next.role, scope: next.scope, display_name: next.display_name })
    .where('name', '=', row.name)
    .execute();
  return next;
}
