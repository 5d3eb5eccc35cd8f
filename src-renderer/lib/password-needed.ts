/**
 * The "password needed" prompt's model and words: the controllers whose secret is not
 * available, grouped by the user they log in as, so one password serves all of them.
 */
import type { ControllerState, ControllerSummary } from '../../src-preload/model';
import { namesText } from './attention';

export interface PasswordGroup {
  /** The user they log in as; '' for controllers that log in with an access token. */
  user: string;
  controllers: ControllerSummary[];
}

/** The controllers waiting for a password, one group per user (in the saved order), tokens last. */
export function passwordGroups(
  controllers: readonly ControllerSummary[],
  states: Readonly<Record<string, ControllerState>>,
): PasswordGroup[] {
  const groups = new Map<string, ControllerSummary[]>();
  for (const c of controllers) {
    if (states[c.id]?.status !== 'password_needed') continue;
    const key = c.auth === 'token' ? '' : c.user;
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  return [...groups.entries()]
    .map(([user, list]) => ({ user, controllers: list }))
    .sort((a, b) => Number(a.user === '') - Number(b.user === ''));
}

/** "Bench A", or "34 controllers". */
export function controllersWord(list: readonly Pick<ControllerSummary, 'name'>[]): string {
  return list.length === 1 ? list[0]!.name : `${list.length} controllers`;
}

/** The prompt's heading: "Enter the password for admin on 34 controllers". */
export function promptTitle(group: PasswordGroup): string {
  return group.user === ''
    ? `${controllersWord(group.controllers)} ${group.controllers.length === 1 ? 'needs its' : 'need their'} access token`
    : `Enter the password for ${group.user} on ${controllersWord(group.controllers)}`;
}

/** After a try: "Connected 33 of 34 controllers." / "Connected Bench A." */
export function outcomeSentence(results: readonly { ok: boolean; name: string }[]): string {
  const ok = results.filter((r) => r.ok);
  if (results.length === 1)
    return ok.length ? `Connected ${ok[0]!.name}.` : `${results[0]!.name} is not connected.`;
  return `Connected ${ok.length} of ${results.length} controllers.`;
}

/**
 * What the Core said about each controller after a try, one line per cause: messages that differ only
 * in the controller's name and address are one line naming them all ("Unit 001, Unit 002 … and 195 more
 * did not accept this password for admin; they still need one."), not 200 identical lines.
 */
export function outcomeLines(results: readonly { name: string; message: string | null }[]): string[] {
  const groups = new Map<string, { names: string[]; message: string }>();
  for (const r of results) {
    if (!r.message) continue;
    const key = r.message
      .split(r.name)
      .join('\u0000')
      .replace(/\b[a-z]+:\/\/\S+/g, '');
    const group = groups.get(key) ?? { names: [], message: r.message };
    group.names.push(r.name);
    groups.set(key, group);
  }
  return [...groups.values()].map(({ names, message }) => {
    if (names.length === 1 || !message.startsWith(`${names[0]} `))
      return names.length === 1 ? message : `${message} (${namesText(names)})`;
    const rest = message
      .slice(names[0]!.length)
      .replace(/ at [a-z]+:\/\/[\w.:[\]/-]*[\w\]/]/g, '')
      .split(names[0]!)
      .join('them')
      .replace(/\bit still needs\b/g, 'they still need')
      .replace(/\bwas removed\b/g, 'were removed');
    return `${namesText(names)}${rest}`;
  });
}

export type SecretWhere = 'keychain' | 'session' | 'missing' | 'none';

/** The Connection form's words for where the secret lives (null: not known yet). */
export function secretHint(word: 'password' | 'token', where: SecretWhere | null): string {
  switch (where) {
    case 'keychain':
      return `The ${word} is saved in the system keychain. Type a new one to replace it; leave empty to keep it.`;
    case 'session':
      return `The ${word} is kept for this session only (no keychain, or not remembered): Plugboard forgets it when it stops. Type it here to save it again.`;
    case 'missing':
      return `The ${word} is missing (no keychain, a locked one, or the entry is gone): type it to connect again.`;
    case 'none':
      return `No ${word} is saved.`;
    default:
      return `Type a new ${word} to replace the saved one; leave empty to keep it.`;
  }
}
