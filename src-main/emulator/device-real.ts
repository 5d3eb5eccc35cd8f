import type { AutopingItemFields, AutopingSettings, AutopingStatus } from './autoping';
import type { Behaviours, Controller } from './controller';
import { isObjectModelId, type ObjectModelMeter } from './meters-object-model';

/** One AutoPing item as a test sees it: the REST fields plus the simulation's counters. */
export interface AutopingItemSnapshot extends AutopingItemFields {
  index: number;
  status: AutopingStatus;
  /** Power cycles this item has done (since reset_statistics). */
  reboots: number;
}

/** The device API for the real-unit behaviours; part of Device. */
export interface RealUnitDevice {
  /** The real-unit behaviours this controller shows (all off in the fast default profile). */
  readonly behaviours: Readonly<Behaviours>;
  /**
   * `meter/values/` in the object-model form (meterMap 'object-model'); throws otherwise. setMeter and
   * resetMeter take these ids too.
   */
  meterMap(): Record<string, ObjectModelMeter>;
  /** The External APIs grant of a user (only checked with the externalApiGrant option). */
  grantExternalApis(name: string, granted: boolean): void;
  /** Does this address answer AutoPing's (simulated) pings? Default: no. */
  autopingAnswers(address: string, answers: boolean): void;
  /** Run one AutoPing round now (instead of waiting ping_interval seconds). */
  autopingTick(): void;
  /** AutoPing's settings and items; throws without the autoping option. */
  autoping(): { settings: AutopingSettings; items: AutopingItemSnapshot[] };
  /** Change AutoPing's global settings (as a PUT to autoping/… would). */
  setAutoping(patch: Partial<AutopingSettings>): void;
}

export function createRealUnitDevice(controller: Controller): RealUnitDevice & {
  pinMeter(key: string, value: number | null): boolean;
  unpinMeter(key: string): boolean;
} {
  const autoping = () => {
    if (!controller.autoping)
      throw new Error('This controller has no AutoPing (start it with autoping: true).');
    return controller.autoping;
  };
  return {
    behaviours: controller.behaviours,
    meterMap() {
      if (!controller.objectMeters)
        throw new Error(
          "This controller's meters are not in the object-model form (meterMap: 'object-model').",
        );
      return controller.objectMeters.values();
    },
    grantExternalApis(name, granted) {
      const user = controller.users.find(name);
      if (!user) throw new RangeError(`No user ${name}`);
      user.externalApis = granted;
    },
    autopingAnswers: (address, answers) => autoping().setAnswers(address, answers),
    autopingTick: () => autoping().tick(),
    autoping() {
      const { settings, items } = autoping();
      return {
        settings: { ...settings },
        items: items.map((item, index) => ({
          index,
          addresses: [...item.addresses],
          outlets: [...item.outlets],
          enabled: item.enabled,
          pings_before_enabling: item.pings_before_enabling,
          script: item.script,
          resumption_trial: item.resumption_trial,
          status: item.status,
          reboots: item.reboots,
        })),
      };
    },
    setAutoping(patch) {
      const target = autoping();
      Object.assign(target.settings, patch);
      target.changed();
    },
    /** An object-model id: pinned there (true); otherwise left to the simple meters (false). */
    pinMeter(key, value) {
      if (!controller.objectMeters || !isObjectModelId(key)) return false;
      controller.objectMeters.pin(key, value);
      return true;
    },
    unpinMeter(key) {
      if (!controller.objectMeters || !isObjectModelId(key)) return false;
      controller.objectMeters.unpin(key);
      return true;
    },
  };
}
