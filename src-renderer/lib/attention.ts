/**
 * What needs attention, one message per cause: controllers that share a status and a reason (200 units
 * offline because the connection is refused) make one message that names them, and meters outside the
 * same limit on several controllers make one too. Each message is a headline and one detail line.
 * Controllers waiting for a password are left out: the password prompt above the page covers them.
 */
import type {
  ContractError,
  ControllerState,
  ControllerStatus,
  ControllerSummary,
  LimitBreach,
  Settings,
} from '../../src-preload/model';
import { nextStep } from './errors';
import { formatDuration, formatTime } from './format';
import { breachReading } from './meters';
import { staleFor, statusOf, statusSentence } from './status';

/** What the person can do about a whole message from where it is shown. */
export type AttentionAction = 'retry' | 'open' | 'none';

export interface AttentionItem {
  /** Stable while the cause lasts (a list key). */
  key: string;
  /** "200 controllers offline (connection refused)", or one controller's status in a sentence. */
  headline: string;
  /** The controllers it is about, in the saved order. */
  controllers: Pick<ControllerSummary, 'id' | 'name'>[];
  /** The one detail line: what to do, or since when. */
  detail: string;
  action: AttentionAction;
  tone: 'danger' | 'warn';
}

/** At most this many names are written out in a headline; the rest are counted. */
export const NAMES_SHOWN = 5;

/** The status of several controllers in a phrase: "offline", "do not accept the saved login". */
const MANY_PHRASE: Record<ControllerStatus, string> = {
  connecting: 'connecting',
  online: 'online',
  offline: 'offline',
  auth_failed: 'do not accept the saved login',
  api_disabled: 'have their REST-style API switched off',
  tls_changed: 'present a different certificate',
  rebooting: 'rebooting',
  error: 'answer with errors',
  password_needed: 'need their password again',
};

/** What may be done about a status from a list: retry where only time or the network stands in the way. */
const ACTION: Record<ControllerStatus, AttentionAction> = {
  connecting: 'none',
  online: 'none',
  offline: 'retry',
  auth_failed: 'open',
  api_disabled: 'retry',
  tls_changed: 'open',
  rebooting: 'none',
  error: 'retry',
  password_needed: 'none',
};

/** Problems whose message ends with a short reason worth grouping by (the same for many controllers). */
const REASONED = new Set<ContractError['code']>(['UNREACHABLE', 'TIMEOUT', 'AUTH_FAILED']);

/**
 * The short reason in a problem's last brackets: "connection refused" of "Cannot reach … (connection
 * refused).", `user "admin"` of a refused login; null when there is none worth grouping by.
 */
export function reasonOf(problem: ContractError | null): string | null {
  if (!problem || !REASONED.has(problem.code)) return null;
  const match = /\(([^()]{1,40})\)\.?$/.exec(problem.message.trim());
  return match ? match[1]! : null;
}

/** "Unit 001, Unit 002, Unit 003, Unit 004, Unit 005 and 195 more" */
export function namesText(names: readonly string[], shown = NAMES_SHOWN): string {
  if (names.length <= shown)
    return names.length > 1 ? `${names.slice(0, -1).join(', ')} and ${names.at(-1)}` : (names[0] ?? '');
  return `${names.slice(0, shown).join(', ')} and ${names.length - shown} more`;
}

/** "Unit 001 is offline (connection refused)" / "200 controllers offline (connection refused): Unit 001, …" */
export function statusHeadline(
  names: readonly string[],
  status: ControllerStatus,
  reason: string | null,
): string {
  const why = reason ? ` (${reason})` : '';
  if (names.length === 1) return `${statusSentence(names[0]!, status)}${why}`;
  return `${names.length} controllers ${MANY_PHRASE[status]}${why}: ${namesText(names)}`;
}

/**
 * What a status needs, in one line: whether Plugboard keeps trying by itself, and what the person does,
 * said `here` (the controller's own page, where the fields are) or in a `list` of several. Polling pauses
 * on a refused login (retrying could lock the user out) and on a changed certificate (a person must
 * decide), so those never promise that things come back by themselves.
 */
export function statusNeed(
  status: ControllerStatus,
  problem: ContractError | null,
  place: 'here' | 'list',
  count = 1,
): string {
  switch (status) {
    case 'auth_failed':
      return `Plugboard stopped trying, so the user is not locked out: ${place === 'here' ? 'enter the password below' : `open ${count === 1 ? 'it' : 'each'} to enter the password`}.`;
    case 'tls_changed':
      return `Plugboard does not connect until you ${place === 'here' ? 'compare the new fingerprint below with the controller’s own page and trust it' : 'open it, compare the new fingerprint and trust it'}.`;
    case 'rebooting':
      return 'Plugboard checks until it answers again.';
    case 'password_needed':
      return 'Enter the password where Plugboard asks, at the top of the window.';
    default: {
      // The message says what went wrong unless the headline's reason already does (or it names another unit).
      const said = problem && count === 1 && reasonOf(problem) === null ? `${problem.message} ` : '';
      return `${said}Plugboard keeps trying. ${problem ? nextStep(problem) : ''}`.trim();
    }
  }
}

/** Controllers grouped by status and reason, problems as the Overview lists them. */
export function statusItems(
  controllers: readonly ControllerSummary[],
  states: Readonly<Record<string, ControllerState>>,
  /** The controller's read interval (status.ts, readIntervalMs), or one for all. */
  pollIntervalMs: number | ((c: ControllerSummary) => number),
  now: number,
): AttentionItem[] {
  const groups = new Map<
    string,
    { status: ControllerStatus; problem: ContractError | null; list: ControllerSummary[] }
  >();
  const stale: { c: ControllerSummary; age: number }[] = [];
  for (const c of controllers) {
    const live = states[c.id];
    const status = statusOf(live);
    // The password prompt above the page already asks for these.
    if (status === 'password_needed' || status === 'connecting') continue;
    if (status === 'online') {
      const age = staleFor(
        live,
        typeof pollIntervalMs === 'number' ? pollIntervalMs : pollIntervalMs(c),
        now,
      );
      if (age !== null) stale.push({ c, age });
      continue;
    }
    const problem = live?.problem ?? null;
    const key = `${status}|${problem?.code ?? ''}|${reasonOf(problem) ?? ''}`;
    const group = groups.get(key) ?? { status, problem, list: [] };
    group.list.push(c);
    groups.set(key, group);
  }
  const items = [...groups.entries()].map(([key, { status, problem, list }]): AttentionItem => ({
    key,
    headline: statusHeadline(
      list.map((c) => c.name),
      status,
      reasonOf(problem),
    ),
    controllers: list.map(({ id, name }) => ({ id, name })),
    detail: statusNeed(status, problem, 'list', list.length),
    action: ACTION[status],
    tone: status === 'rebooting' ? 'warn' : 'danger',
  }));
  if (stale.length) {
    const names = stale.map((s) => s.c.name);
    const longest = Math.max(...stale.map((s) => s.age));
    items.push({
      key: 'stale',
      headline:
        stale.length === 1
          ? `${names[0]}: no answer for ${formatDuration(longest)}`
          : `${stale.length} controllers without an answer for up to ${formatDuration(longest)}: ${namesText(names)}`,
      controllers: stale.map(({ c }) => ({ id: c.id, name: c.name })),
      detail: 'Their outlets may be out of date; Plugboard keeps trying.',
      action: 'retry',
      tone: 'warn',
    });
  }
  return items;
}

/** Breaches grouped by meter and side: a lab-wide sag is one message, not one per controller. */
export function breachItems(
  breaches: readonly LimitBreach[],
  controllers: readonly ControllerSummary[],
  settings: Pick<Settings, 'temperatureUnit' | 'meterLimitHoldSeconds'>,
): AttentionItem[] {
  const byId = new Map(controllers.map((c) => [c.id, c]));
  const groups = new Map<string, { b: LimitBreach; c: ControllerSummary }[]>();
  for (const b of breaches) {
    const c = byId.get(b.controllerId);
    if (!c) continue;
    const key = `breach|${b.name}|${b.side}`;
    groups.set(key, [...(groups.get(key) ?? []), { b, c }]);
  }
  return [...groups.entries()].map(([key, list]): AttentionItem => {
    const { b, c } = list[0]!;
    const words = breachReading(b, settings.temperatureUnit);
    const side = b.side === 'above' ? 'above the maximum' : 'below the minimum';
    const back = list.every((x) => x.b.insideSince !== null);
    const hold = formatDuration(settings.meterLimitHoldSeconds * 1000);
    return {
      key,
      headline:
        list.length === 1
          ? `${c.name}: ${b.name} ${words.value} ${side} of ${words.limit}`
          : `${b.name} ${side} on ${list.length} controllers: ${namesText(list.map((x) => x.c.name))}`,
      controllers: list.map((x) => ({ id: x.c.id, name: x.c.name })),
      detail: back
        ? `Back inside since ${formatTime(Math.min(...list.map((x) => x.b.insideSince!)))}; this ends once it stays inside for ${hold}.`
        : `Outside since ${formatTime(Math.min(...list.map((x) => x.b.since)))}${list.length === 1 ? '' : ' (the first of them)'}.`,
      action: 'open',
      tone: back ? 'warn' : 'danger',
    };
  });
}
