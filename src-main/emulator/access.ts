import type { Ctx, UserRule } from './tree';

/** Subtrees only administrators may even read. */
const ADMIN_ONLY_ROOTS = new Set(['auth', 'script']);

/** Is the caller an administrator (for a token: a `modify` scope over the whole tree)? */
export function isAdmin(ctx: Ctx): boolean {
  const { caller } = ctx;
  return caller.kind === 'user'
    ? caller.user.isAdmin
    : ctx.controller.clients.allows(caller.clientId, 'modify', []);
}

/** How the controller names the caller: the user, or the token's client (by id when it has no name). */
export function callerName(ctx: Ctx): string {
  const { caller } = ctx;
  return caller.kind === 'user'
    ? caller.user.name
    : (ctx.controller.clients.record(caller.clientId)?.name ?? caller.clientId);
}

export function canRead(ctx: Ctx, path: readonly string[]): boolean {
  const { caller } = ctx;
  if (caller.kind === 'token')
    return path[0] === 'cred' || ctx.controller.clients.allows(caller.clientId, 'get', path);
  return caller.user.isAdmin || !ADMIN_ONLY_ROOTS.has(path[0] ?? '');
}

/** Writes and calls: administrators, non-admins where `userMay` allows, tokens where a scope does. */
export function canModify(ctx: Ctx, path: readonly string[], userMay?: UserRule): boolean {
  const { caller } = ctx;
  if (caller.kind === 'token') return ctx.controller.clients.allows(caller.clientId, 'modify', path);
  return caller.user.isAdmin || (userMay?.(caller.user) ?? false);
}

/** Calls (cycle, script start, reboot): like canModify, but a token needs the `invoke` access. */
export function canInvoke(ctx: Ctx, path: readonly string[], userMay?: UserRule): boolean {
  const { caller } = ctx;
  if (caller.kind === 'token') return ctx.controller.clients.allows(caller.clientId, 'invoke', path);
  return caller.user.isAdmin || (userMay?.(caller.user) ?? false);
}

export const outletRule =
  (index: number): UserRule =>
  (user) =>
    user.outletAccess[index] === true;

/** May the caller switch this outlet (through `field`)? */
export function canSwitch(ctx: Ctx, index: number, field = 'transient_state'): boolean {
  return canModify(ctx, ['relay', 'outlets', String(index), field], outletRule(index));
}
