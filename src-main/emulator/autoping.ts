import type { Relay } from './relay';

/**
 * What an item is doing (the unit's status strings are not published; these are the emulator's):
 * disabled; waiting (counting answered pings before it arms); ok (armed, answering); failing (one round
 * unanswered); rebooting (its outlets were power-cycled, waiting for the post-reboot delay); halted
 * (max reboots reached: no more cycles until the target answers again).
 */
export type AutopingStatus = 'disabled' | 'waiting' | 'ok' | 'failing' | 'rebooting' | 'halted';

/** One `autoping/items/N/` entry as the REST API shows it (power_switch_pro's autoping.py, reference §6.8). */
export interface AutopingItemFields {
  addresses: string[];
  /** Outlet indices, 0 = outlet 1. */
  outlets: number[];
  enabled: boolean;
  /** null: use the global `pings_before_enabling`. */
  pings_before_enabling: number | null;
  /** A user function to run instead of the power cycle; '' = power-cycle the outlets. */
  script: string;
  /** After a reboot, wait for answered pings again before re-arming. */
  resumption_trial: boolean;
}

export interface AutopingItem extends AutopingItemFields {
  status: AutopingStatus;
  /** Runtime counters (not part of the REST item). */
  answered: number;
  failures: number;
  reboots: number;
  consecutiveReboots: number;
  rebootUntil: number;
}

/** The global settings of `autoping/` (reference §6.8; defaults from DLI's guide where it gives one). */
export interface AutopingSettings {
  enabled: boolean;
  /** Seconds between ping rounds (the guide suggests 60). */
  ping_interval: number;
  ping_timeout: number;
  /** Seconds an item waits after power-cycling before pinging again. */
  post_reboot_delay: number;
  /** 0 = no limit. */
  max_reboot_count: number;
  /** 0 = no limit. */
  max_consecutive_reboot_count: number;
  pings_before_enabling: number;
  resume_without_retrial: boolean;
  /** Power-cycle on the first unanswered round instead of the second. */
  handle_failures_immediately: boolean;
}

export const DEFAULT_SETTINGS: AutopingSettings = {
  enabled: true,
  ping_interval: 60,
  ping_timeout: 10,
  post_reboot_delay: 180,
  max_reboot_count: 0,
  max_consecutive_reboot_count: 0,
  pings_before_enabling: 10,
  resume_without_retrial: false,
  handle_failures_immediately: false,
};

/**
 * AutoPing without ICMP: an address "answers" when the emulator was told so (option or device API).
 * Every `ping_interval` seconds (or on device.autopingTick()) each enabled item runs one round: a round
 * is answered when any of its addresses answers. Waiting items arm after `pings_before_enabling`
 * answered rounds; an armed item whose addresses stop answering power-cycles its outlets, as the unit
 * does, then waits `post_reboot_delay` and resumes (through a new trial with `resumption_trial`).
 */
export class Autoping {
  readonly settings: AutopingSettings = { ...DEFAULT_SETTINGS };
  readonly items: AutopingItem[] = [];
  private readonly answering: Set<string>;
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly relay: Relay,
    answering: readonly string[] = [],
    /** Starts a user function by name; false when it cannot (then the outlets are power-cycled). */
    private readonly runScript: (name: string) => boolean = () => false,
  ) {
    this.answering = new Set(answering);
    this.schedule();
  }

  setAnswers(address: string, answers: boolean): void {
    if (answers) this.answering.add(address);
    else this.answering.delete(address);
  }

  answers(address: string): boolean {
    return this.answering.has(address);
  }

  /** Settings changed: restart the timer; items switched on or off by `enabled` follow. */
  changed(): void {
    for (const item of this.items) {
      if (!(this.settings.enabled && item.enabled)) item.status = 'disabled';
      else if (item.status === 'disabled') this.restart(item);
    }
    this.schedule();
  }

  add(fields: AutopingItemFields): AutopingItem {
    const item: AutopingItem = {
      ...fields,
      status: 'disabled',
      answered: 0,
      failures: 0,
      reboots: 0,
      consecutiveReboots: 0,
      rebootUntil: 0,
    };
    this.restart(item);
    this.items.push(item);
    return item;
  }

  /** Replaces an item's fields; its trial starts over. */
  replace(item: AutopingItem, fields: AutopingItemFields): void {
    Object.assign(item, fields);
    this.restart(item);
  }

  remove(index: number): void {
    this.items.splice(index, 1);
  }

  resetStatistics(): void {
    for (const item of this.items) {
      item.reboots = 0;
      item.consecutiveReboots = 0;
    }
  }

  /** One round of pings for every item. */
  tick(now = Date.now()): void {
    for (const item of this.items) this.round(item, now);
  }

  dispose(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  private restart(item: AutopingItem): void {
    item.answered = 0;
    item.failures = 0;
    item.status = this.settings.enabled && item.enabled ? 'waiting' : 'disabled';
  }

  private schedule(): void {
    clearInterval(this.timer);
    this.timer = setInterval(() => this.tick(), this.settings.ping_interval * 1000);
    this.timer.unref();
  }

  private round(item: AutopingItem, now: number): void {
    if (item.status === 'disabled') return;
    if (item.status === 'rebooting') {
      if (now < item.rebootUntil) return;
      const retrial = item.resumption_trial || !this.settings.resume_without_retrial;
      item.status = retrial ? 'waiting' : 'ok';
      item.answered = 0;
      item.failures = 0;
    }
    const answered = item.addresses.some((address) => this.answering.has(address));
    // The target is back: the reboots so far were not in a row.
    if (answered) item.consecutiveReboots = 0;
    switch (item.status) {
      case 'waiting': {
        item.answered = answered ? item.answered + 1 : 0;
        const needed = item.pings_before_enabling ?? this.settings.pings_before_enabling;
        if (item.answered >= needed) item.status = 'ok';
        return;
      }
      case 'halted':
        if (answered) item.status = 'ok';
        return;
      default:
        if (answered) {
          item.status = 'ok';
          item.failures = 0;
          return;
        }
        item.failures += 1;
        item.status = 'failing';
        if (item.failures >= (this.settings.handle_failures_immediately ? 1 : 2)) this.reboot(item, now);
    }
  }

  private reboot(item: AutopingItem, now: number): void {
    const { max_reboot_count: total, max_consecutive_reboot_count: consecutive } = this.settings;
    if ((total > 0 && item.reboots >= total) || (consecutive > 0 && item.consecutiveReboots >= consecutive)) {
      item.status = 'halted';
      return;
    }
    let longest = 0;
    const scripted = item.script !== '' && this.runScript(item.script);
    for (const index of scripted ? [] : item.outlets) {
      const outlet = this.relay.outlets[index];
      if (!outlet || outlet.locked) continue;
      if (this.relay.cycle(index)) longest = Math.max(longest, outlet.cycleDelay ?? this.relay.cycleDelay);
    }
    item.reboots += 1;
    item.consecutiveReboots += 1;
    item.failures = 0;
    item.status = 'rebooting';
    item.rebootUntil = now + (longest + this.settings.post_reboot_delay) * 1000;
  }
}
