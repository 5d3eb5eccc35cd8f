/**
 * The Core's one LimitWatch (meter-limits.ts): fed by the events the Core already pushes (states,
 * settings, controllers), it pushes `meters/breaches`; `meters/breaches` the call answers from it.
 */
import type { LimitBreach } from '../../../src-preload/model';
import type { Clock } from '../kernel/clock';
import type { EventHub } from '../kernel/event-hub';
import type { SettingsStore } from '../saved/settings';
import { LimitWatch } from './meter-limits';

/** What the watch reads of the Core (its context passes itself). */
interface WatchContext {
  events: EventHub;
  settings: SettingsStore;
  clock: Clock;
}

const watches = new WeakMap<WatchContext, LimitWatch>();

/** Start judging limits for this Core (once; later calls return the same watch). */
export function startLimitWatch(ctx: WatchContext): LimitWatch {
  const existing = watches.get(ctx);
  if (existing) return existing;
  const watch = new LimitWatch({
    thresholds: () => ctx.settings.get().meterThresholds,
    holdMs: () => ctx.settings.get().meterLimitHoldSeconds * 1000,
    now: () => ctx.clock.now(),
    emit: (breaches) => ctx.events.emit('meters/breaches', breaches),
  });
  ctx.events.subscribe((name, payload) => {
    if (name === 'state/changed') watch.state(payload as Parameters<LimitWatch['state']>[0]);
    else if (name === 'settings/changed') watch.settings();
    else if (name === 'controllers/changed')
      watch.controllers((payload as { id: string }[]).map((c) => c.id));
  });
  watches.set(ctx, watch);
  return watch;
}

/** The current breaches of this Core (none when its watch was never started). */
export function currentBreaches(ctx: WatchContext): LimitBreach[] {
  return watches.get(ctx)?.list() ?? [];
}
