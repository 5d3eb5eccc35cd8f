/**
 * The People page's words and checks: an account's scope as a person reads it ("tags rack-7; Bench A
 * outlets 1–3"), and the new-account, change-account and new-password forms' checks before anything is sent: only
 * what the person can see at once (the two passwords differ, no scope chosen). The password's length
 * and the name's form are the Core's rules, and its sentence is shown when it refuses.
 */
import type { CallInput } from '../../src-preload/contract';
import type { AccountSummary, OutletRef, Role, Scope } from '../../src-preload/model';

export const ROLE_WORDS: Record<Role, string> = {
  observer: 'Observer — sees everything in its scope, changes nothing',
  operator: 'Operator — switches, reserves and runs groups and sequences in its scope',
  admin: 'Administrator — also manages controllers and people',
};

/** "1–3, 5": outlet numbers, runs of three or more joined. */
export function numberRuns(numbers: readonly number[]): string {
  const sorted = [...new Set(numbers)].sort((a, b) => a - b);
  const runs: string[] = [];
  for (let i = 0; i < sorted.length;) {
    let j = i;
    while (j + 1 < sorted.length && sorted[j + 1] === sorted[j]! + 1) j++;
    if (j - i >= 2) runs.push(`${sorted[i]}–${sorted[j]}`);
    else for (let k = i; k <= j; k++) runs.push(String(sorted[k]));
    i = j + 1;
  }
  return runs.join(', ');
}

/**
 * Where an account's role applies, in words: "everything", or its tags, controllers and outlets by
 * name ("tags rack-7, lab; Bench A; Bench B outlets 1–3"). A controller the window does not know
 * (removed since) is named by its id.
 */
export function scopeWords(scope: Scope, nameOf: (controllerId: string) => string | undefined): string {
  if (scope.kind === 'all') return 'everything';
  const name = (id: string) => nameOf(id) ?? `controller ${id}`;
  const parts: string[] = [];
  if (scope.tags.length) parts.push(`${scope.tags.length === 1 ? 'tag' : 'tags'} ${scope.tags.join(', ')}`);
  for (const id of scope.controllers) parts.push(name(id));
  const byController = new Map<string, number[]>();
  for (const o of scope.outlets)
    byController.set(o.controllerId, [...(byController.get(o.controllerId) ?? []), o.outlet]);
  for (const [id, outlets] of byController)
    parts.push(`${name(id)} ${outlets.length === 1 ? 'outlet' : 'outlets'} ${numberRuns(outlets)}`);
  return parts.length ? parts.join('; ') : 'nothing';
}

export type ScopeKind = 'all' | 'some';

/** The add form as typed: the scope's parts are kept while the person switches between kinds. */
export interface AccountDraft {
  name: string;
  displayName: string;
  role: Role;
  scopeKind: ScopeKind;
  tags: string[];
  controllers: string[];
  /** "controllerId:outlet" keys of the ticked outlets. */
  outlets: string[];
  password: string;
  repeat: string;
}

export type AccountField = 'name' | 'password' | 'repeat' | 'scope';

export function emptyAccountDraft(): AccountDraft {
  return {
    name: '',
    displayName: '',
    role: 'operator',
    scopeKind: 'all',
    tags: [],
    controllers: [],
    outlets: [],
    password: '',
    repeat: '',
  };
}

/** The form filled with an account as it is, to change it in place (no password: that has its own form). */
export function draftOf(account: AccountSummary): AccountDraft {
  const some = account.scope.kind === 'some' ? account.scope : null;
  return {
    ...emptyAccountDraft(),
    name: account.name,
    displayName: account.displayName === account.name ? '' : account.displayName,
    role: account.role,
    scopeKind: account.scope.kind,
    tags: [...(some?.tags ?? [])],
    controllers: [...(some?.controllers ?? [])],
    outlets: (some?.outlets ?? []).map(outletKey),
  };
}

/** What is wrong with a draft's scope (the only part of a change of an account that can be wrong). */
export function scopeProblems(draft: AccountDraft): Partial<Record<AccountField, string>> {
  const scope = draftScope(draft);
  if (scope.kind === 'some' && !scope.tags.length && !scope.controllers.length && !scope.outlets.length)
    return { scope: 'Choose at least one tag, controller or outlet, or “Everything”.' };
  return {};
}

export function outletKey(ref: OutletRef): string {
  return `${ref.controllerId}:${ref.outlet}`;
}

/** The scope a draft names. */
export function draftScope(draft: AccountDraft): CallInput<'accounts/add'>['scope'] {
  if (draft.scopeKind === 'all') return { kind: 'all' };
  return {
    kind: 'some',
    tags: [...draft.tags],
    controllers: [...draft.controllers],
    outlets: draft.outlets.map((key) => {
      const at = key.lastIndexOf(':');
      return { controllerId: key.slice(0, at), outlet: Number(key.slice(at + 1)) };
    }),
  };
}

/** A password typed twice: what is wrong with it, by field. */
export function passwordProblems(password: string, repeat: string): Partial<Record<AccountField, string>> {
  const problems: Partial<Record<AccountField, string>> = {};
  if (!password) problems.password = 'Type a password (the service says how long it must be).';
  if (repeat !== password) problems.repeat = 'The two passwords differ: type the same password twice.';
  return problems;
}

/** What is wrong with a new account's draft, by field; empty when it may be sent. */
export function accountProblems(
  draft: AccountDraft,
  existing: readonly string[],
): Partial<Record<AccountField, string>> {
  const problems = { ...passwordProblems(draft.password, draft.repeat), ...scopeProblems(draft) };
  const name = draft.name.trim().toLowerCase();
  if (!name) problems.name = 'Type the name they sign in with.';
  else if (existing.includes(name))
    problems.name = `An account named ${name} exists already: choose another name.`;
  return problems;
}
