/**
 * `on`, `off`, `cycle` on saved controllers and groups, through the Core (fleet-switch.ts): which path a
 * command takes, its options (--wait, --timeout, --yes), and how the outcome is printed and exited.
 */
import { errorSentence } from '../shared/errors';
import { throughCore, type CommandContext } from './command-context';
import { parseOutletSpec } from './outlet-spec';
import { EXIT_FAILED, combinedExitCode, exitCodeFor, inCliTerms } from './exit-codes';
import type { FleetAction, FleetOptions, PartOutcome } from './fleet-switch';
import { oneOffCoreSoon, routeToCore } from './core-route';
import { ExitWith, UsageError } from './io';

/**
 * How long `reboot --wait` waits by default, in seconds: as long as the Core itself waits for a rebooting
 * unit before it calls it offline.
 */
export const REBOOT_WAIT_S = 300;

/** --timeout in seconds (default 60, or `defaultSeconds`), as ms. */
export function timeoutMs(context: CommandContext, defaultSeconds = 60): number {
  const typed = context.options.timeout;
  if (typed === undefined) return defaultSeconds * 1000;
  const seconds = Number(typed);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 3600) {
    throw new UsageError('--timeout takes seconds, more than 0 and at most 3600 (e.g. --timeout 30).');
  }
  return seconds * 1000;
}

/**
 * `on`, `off`, `cycle`: through the machine's Core for saved controllers and groups (targets.ts), or a
 * one-off Core over the unit at --url, whose outlets are that unit's (the words are its outlets).
 */
export async function runFleet(context: CommandContext, action: FleetAction, words: string[]): Promise<void> {
  const o = context.options;
  const options: FleetOptions = {
    action,
    transient: o.transient === true,
    wait: o.wait === true,
    timeoutMs: timeoutMs(context),
    confirmCritical: o.yes === true,
  };
  // The words are one controller's outlets: their mistakes are found before anything is opened or sent.
  if (o.controller !== undefined || !throughCore(context)) parseOutletSpec(words.join(' '));
  const { switchTargets } = await import('./fleet-switch');
  const ephemeral = throughCore(context) ? null : oneOffCoreSoon(context);
  const routed = await routeToCore(context);
  if (!routed) {
    const { withEphemeralController } = await (ephemeral ?? import('./ephemeral'));
    return withEphemeralController(context, async (core, controller) => {
      const outcomes = await switchTargets(core, [`${controller.name}:${words.join(' ')}`], options);
      report(context, outcomes, options);
    });
  }
  // Today's form: --controller NAME on 3 (the words are that controller's outlets).
  const controller = routed.options.controller;
  const targets = controller !== undefined ? [`${String(controller)}:${words.join(' ')}`] : words;
  const { withCore } = await import('./core-access');
  await withCore(routed, async (core) => {
    const outcomes = await switchTargets(core, targets, options);
    report(context, outcomes, options);
  });
}

function outletWords(numbers: readonly number[]): string {
  return numbers.length === 1 ? `outlet ${numbers[0]}` : `outlets ${numbers.join(', ')}`;
}

function report(context: CommandContext, outcomes: readonly PartOutcome[], o: FleetOptions): void {
  const { terminal } = context;
  const failures: number[] = [];
  let done = 0;
  for (const outcome of outcomes) {
    const name = outcome.controller.name;
    const failed = outcome.result?.failed ?? [];
    const failedSet = new Set(failed.map((f) => f.outlet));
    const unconfirmed = new Set(outcome.unconfirmed);
    const ok = (outcome.result?.requested ?? []).filter((n) => !failedSet.has(n) && !unconfirmed.has(n));
    const codes = [
      ...(outcome.error ? [exitCodeFor(outcome.error.code)] : []),
      ...failed.map((f) => exitCodeFor(f.error.code)),
      ...(outcome.unconfirmed.length ? [EXIT_FAILED] : []),
    ];
    // Counted by outlet: "all off" with one locked outlet is partly done (PARTIAL), not refused.
    if (codes.length) failures.push(combinedExitCode(codes, 0));
    done += ok.length;
    if (!context.json && ok.length) terminal.print(doneLine(o, name, ok));
    if (context.json) continue;
    const prefix = (message: string): string => (message.includes(name) ? message : `${name}: ${message}`);
    if (outcome.error)
      terminal.warn(`plugboard: ${prefix(errorSentence(inCliTerms(outcome.error)))} [${outcome.error.code}]`);
    for (const f of failed) terminal.warn(`plugboard: ${prefix(errorSentence(f.error))} [${f.error.code}]`);
    if (outcome.unconfirmed.length) {
      const why = o.wait
        ? `not confirmed by the unit within ${o.timeoutMs / 1000} s`
        : 'sent, but the unit did not answer: not confirmed';
      terminal.warn(`plugboard: ${name}: ${outletWords(outcome.unconfirmed)} ${why}.`);
    }
  }
  if (context.json) terminal.json(outcomes.map((x) => outcomeJson(x, o)));
  const code = combinedExitCode(failures, done);
  if (code !== 0) throw new ExitWith(code);
}

function doneLine(o: FleetOptions, name: string, ok: readonly number[]): string {
  const how = o.transient ? ', transient state (until the next reboot)' : '';
  const confirmed = o.wait ? '; the unit confirmed it' : '';
  if (o.action === 'cycle')
    return `${name}: cycling ${outletWords(ok)}${confirmed ? `; back on, confirmed` : ''}.`;
  return `Switched ${outletWords(ok)} ${o.action} (${name}${how})${confirmed}.`;
}

function outcomeJson(x: PartOutcome, o: FleetOptions): Record<string, unknown> {
  return {
    controller: x.controller.name,
    controller_id: x.controller.id,
    action: o.action,
    requested: x.result?.requested ?? (x.outlets === 'all' ? [] : x.outlets),
    failed: x.result?.failed ?? [],
    unconfirmed: x.unconfirmed,
    error: x.error,
    ...(o.wait ? { confirmed: !x.error && !x.result?.failed.length && x.unconfirmed.length === 0 } : {}),
  };
}
