import type {
  AutopingItem,
  AutopingItemInput,
  ControllerSummary,
  MeterHistory,
  OutletActionResult,
  Result,
  TreeNode,
} from '../../../src-preload/contract';
import { settle, type Backend } from '../backend';
import type { ScriptArg } from '../script-args';

export type Outlets = number[] | 'all';

/** New values for a saved controller; `secret` replaces the stored password or token when given. */
export interface ConnectionPatch {
  name?: string;
  url?: string;
  colour?: string;
  auth?: { kind: 'digest' | 'basic'; user: string; password?: string } | { kind: 'token'; token?: string };
  fingerprint?: string | null;
  /** pdudaemon's hostname besides the name (one word); null removes it. */
  alias?: string | null;
  /** The person confirmed that the stored secret may go to the changed address, login or user. */
  reuseSecret?: true;
  /** Tags, replaced whole; [] removes them all. */
  tags?: string[];
  /** The topic root the unit publishes its outlet changes under (MQTT); null: it does not. */
  mqttTopic?: string | null;
}

/** How the person lets a new certificate have the secret: typed again, or the stored one confirmed. */
export interface SecretConfirmation {
  secret?: string;
  reuseSecret?: true;
}

/** An outlet's settings to change (`outlets/configure`); what is left out stays. */
export interface OutletSettingsChange {
  /** Whole seconds; null = use the relay's cycle delay. */
  cycleDelay?: number | null;
  critical?: boolean;
}

/**
 * Everything one controller's tab can ask of the backend, bound to that controller. Panels receive the
 * part they need as a prop, so a test hands them plain functions instead of a backend.
 */
export interface ControllerActions {
  /** `confirmCritical`: the person confirmed that critical outlets may lose power (the Core needs it). */
  set(
    outlets: Outlets,
    on: boolean,
    transient?: boolean,
    confirmCritical?: boolean,
  ): Promise<Result<OutletActionResult>>;
  cycle(outlet: number, confirmCritical?: boolean): Promise<Result<OutletActionResult>>;
  /**
   * Several outlets, each to its own state: saved (one matrix PUT per target state) or, with
   * `transient`, temporary (simultaneous where the firmware allows).
   */
  switchMany(
    changes: { outlet: number; on: boolean }[],
    transient: boolean,
    confirmCritical?: boolean,
  ): Promise<Result<OutletActionResult>>;
  rename(outlet: number, name: string): Promise<Result<null>>;
  configure(outlet: number, change: OutletSettingsChange): Promise<Result<null>>;
  setRelayTiming(timing: { cycleDelay?: number; sequenceDelay?: number }): Promise<Result<null>>;
  startScript(fn: string, args: ScriptArg[]): Promise<Result<{ threadId: string }>>;
  stopScripts(threads: string[] | 'all'): Promise<Result<null>>;
  createUser(user: {
    name: string;
    password: string;
    isAdmin: boolean;
    isAllowed: boolean;
    outletAccess: boolean[];
  }): Promise<Result<null>>;
  /** `confirmOwnUser`: the person confirmed deleting the user Plugboard logs in as. */
  deleteUser(name: string, confirmOwnUser?: boolean): Promise<Result<null>>;
  /** Where the controller's secret lives now. */
  secretWhere(): Promise<Result<{ where: 'keychain' | 'session' | 'missing' | 'none' }>>;
  /** Change a user's fields; `warning` when the new password did not reach the keychain. */
  updateUser(
    name: string,
    change: {
      password?: string;
      isAdmin?: boolean;
      isAllowed?: boolean;
      outletAccess?: boolean[];
      confirmOwnUser?: boolean;
    },
  ): Promise<Result<{ warning: string | null }>>;
  /** AutoPing: list, create (no number) or replace, delete; each answers with the list. */
  autopingList(): Promise<Result<AutopingItem[]>>;
  autopingSave(number: number | undefined, item: AutopingItemInput): Promise<Result<AutopingItem[]>>;
  autopingRemove(number: number): Promise<Result<AutopingItem[]>>;
  setSsh(enabled: boolean): Promise<Result<null>>;
  reboot(): Promise<Result<null>>;
  tree(path: string, depth: number): Promise<Result<TreeNode>>;
  meterHistory(key: string): Promise<Result<MeterHistory>>;
  exportCsv(): Promise<Result<{ filename: string; csv: string }>>;
  update(patch: ConnectionPatch): Promise<Result<ControllerSummary>>;
  remove(): Promise<Result<null>>;
  refresh(): Promise<Result<null>>;
  trustCertificate(fingerprint: string, confirm?: SecretConfirmation): Promise<Result<ControllerSummary>>;
}

/** The actions of controller `id`, each a contract call whose failures come back as data. */
export function controllerActions(api: Backend, id: string): ControllerActions {
  const controllerId = id;
  return {
    set: (outlets, on, transient = false, confirmCritical = false) =>
      settle(api.outlets.set({ controllerId, outlets, on, transient, confirmCritical })),
    cycle: (outlet, confirmCritical = false) =>
      settle(api.outlets.cycle({ controllerId, outlet, confirmCritical })),
    switchMany: (changes, transient, confirmCritical = false) =>
      settle(api.outlets.switch({ controllerId, changes, transient, confirmCritical })),
    rename: (outlet, name) => settle(api.outlets.rename({ controllerId, outlet, name })),
    configure: (outlet, change) => settle(api.outlets.configure({ controllerId, outlet, ...change })),
    setRelayTiming: (timing) => settle(api.system.setRelayTiming({ controllerId, ...timing })),
    startScript: (fn, args) => settle(api.scripts.start({ controllerId, function: fn, args })),
    stopScripts: (threads) => settle(api.scripts.stop({ controllerId, threads })),
    createUser: (user) => settle(api.users.create({ controllerId, ...user })),
    deleteUser: (name, confirmOwnUser) =>
      settle(api.users.delete({ controllerId, name, ...(confirmOwnUser ? { confirmOwnUser } : {}) })),
    updateUser: (name, change) => settle(api.users.update({ controllerId, name, ...change })),
    secretWhere: () => settle(api.controllers.secretWhere({ controllerId })),
    autopingList: () => settle(api.autoping.list({ controllerId })),
    autopingSave: (number, item) =>
      settle(api.autoping.save({ controllerId, item, ...(number === undefined ? {} : { number }) })),
    autopingRemove: (number) => settle(api.autoping.remove({ controllerId, number })),
    setSsh: (enabled) => settle(api.system.setSsh({ controllerId, enabled })),
    reboot: () => settle(api.system.reboot({ controllerId })),
    tree: (path, depth) => settle(api.system.tree({ controllerId, path, depth })),
    meterHistory: (key) => settle(api.meters.history({ controllerId, key })),
    exportCsv: () => settle(api.meters.exportCsv({ controllerId })),
    update: (patch) => settle(api.controllers.update({ id, ...patch })),
    remove: () => settle(api.controllers.remove({ id })),
    refresh: () => settle(api.controllers.refresh({ id })),
    trustCertificate: (fingerprint, confirm = {}) =>
      settle(api.controllers.trustCertificate({ id, fingerprint, ...confirm })),
  };
}
