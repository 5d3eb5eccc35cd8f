/**
 * Data shapes that cross the contract (main → renderer). Plain JSON: no classes, no functions,
 * never a password or token. Outlet numbers here are always 1-based, as printed on the hardware.
 *
 * Shared by both sides, like contract.ts: the renderer and every layer of src-main import it; it imports
 * nothing. See src-preload/README.md.
 */

/** Every error code a result can carry. Each one names something a person can act on. */
export const ERROR_CODES = [
  /** Wrong user name, password or token. */
  'AUTH_FAILED',
  /** Authenticated, but this user may not do that (e.g. a non-admin user running scripts). */
  'FORBIDDEN',
  /** "Allow REST-style API" is off on the controller's External APIs page. */
  'API_DISABLED',
  /** The outlet is locked; only the keypad or the controller's own page can change it. */
  'LOCKED',
  /** Nothing answered at that address (refused, no route, DNS, reset). */
  'UNREACHABLE',
  /** The controller did not answer in time. */
  'TIMEOUT',
  /** The HTTPS certificate differs from the one pinned for this controller. */
  'TLS_CHANGED',
  /** First HTTPS connection: the certificate's fingerprint must be accepted (detail.fingerprint). */
  'TLS_UNTRUSTED',
  /** The controller's firmware is too old for this (detail.requiredFirmware). */
  'UNSUPPORTED_FIRMWARE',
  /** The request itself is wrong: names what is wrong and what to do. */
  'BAD_INPUT',
  /** The controller answered with an error or with something that makes no sense. */
  'DEVICE_ERROR',
  /** Something answered, but it is not a power controller with the REST-style API. */
  'NOT_A_CONTROLLER',
  /** No such controller, group or thread in Plugboard. */
  'NOT_FOUND',
  /** The action was cancelled (e.g. the controller was removed meanwhile). */
  'CANCELLED',
  /** A bug in Plugboard; the message says so and the log has details. */
  'INTERNAL',
  /** Someone else holds a reservation on it (detail: holder, until, reason, reservationId). */
  'RESERVED',
  /**
   * A critical outlet would go off or cycle, and nobody confirmed it (detail.confirmCritical: true;
   * detail.outlets: "<controllerId>:<outlet>" for each). The same call with `confirmCritical: true` does it.
   */
  'CRITICAL_UNCONFIRMED',
  /** The lab store (its database) cannot be used: written by a newer Plugboard, unreachable, or full. */
  'STORE',
  /**
   * This service is a standby: another Plugboard service leads the lab and switches its units (detail:
   * service, leader, leaderAddress). Send changes to the leader.
   */
  'STANDBY',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * Extra facts attached to an error, e.g. `{ fingerprint }` or `{ requiredFirmware }`; a list only of
 * plain values (the outlets a refusal is about).
 */
export type ErrorDetail = Record<string, string | number | boolean | null | readonly (string | number)[]>;

export interface ContractError {
  code: ErrorCode;
  /** For a person: what went wrong (one or two sentences). */
  message: string;
  /** For a person: what to do next, when main knows better than the code's general advice. */
  action?: string;
  detail?: ErrorDetail;
}

/** Every call answers with this: results are data, never thrown exceptions. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: ContractError };

/** How Plugboard logs in to a controller. The secret itself lives in the OS keychain. */
export type AuthKind = 'digest' | 'basic' | 'token';

/** A saved controller, as the registry keeps it (no secrets). */
export interface ControllerSummary {
  id: string;
  name: string;
  /** Base address, `http[s]://host[:port]` (no `/restapi/`). */
  url: string;
  auth: AuthKind;
  /** User name for digest/basic; empty for tokens. */
  user: string;
  /** Whether a password or token is stored in the keychain. */
  hasSecret: boolean;
  /** SHA-256 fingerprint of the pinned certificate (HTTPS), upper-case hex with colons. */
  fingerprint: string | null;
  /** CSS colour for the tab. */
  colour: string;
  order: number;
  /** A demo controller running in-process; removable. */
  demo: boolean;
  /**
   * A second name for the pdudaemon protocol's `hostname`: no spaces (its TCP line splits on
   * them), unique among every controller's names and aliases (case-insensitive). Absent: none.
   */
  alias?: string;
  /** Tags: "rack 7", "bench", "ci"… in the order given. Absent: none. */
  tags?: string[];
  /**
   * The topic root the unit itself publishes its outlet changes under, on the broker the service listens
   * to (the unit's External APIs page, "Allow read"): its messages are hints that make the Core read the
   * outlets at once, and its outlets are then polled at `unitSafetyPollMs`. Null: the unit does not publish.
   */
  mqttTopic: string | null;
}

/** The longest MQTT topic root a controller may be given. */
export const MAX_MQTT_TOPIC_LENGTH = 200;

/** A topic root as typed, trimmed and without trailing "/" (`dli/pdu7/` is `dli/pdu7`). */
export function cleanMqttTopic(topic: string): string {
  return topic.trim().replace(/\/+$/, '');
}

/**
 * What is wrong with a topic root (cleaned), or null: a unit publishes under one root, so no wildcard
 * (`+`, `#`: a root with one would take other devices' messages for the unit's), not the broker's own
 * `$` topics, no empty text, at most MAX_MQTT_TOPIC_LENGTH characters.
 */
export function mqttTopicProblem(topic: string): string | null {
  if (topic === '') return 'is empty';
  if (topic.length > MAX_MQTT_TOPIC_LENGTH) return `is longer than ${MAX_MQTT_TOPIC_LENGTH} characters`;
  if (/[+#]/.test(topic))
    return 'may not contain the wildcards + or # (give the root the unit publishes under)';
  if (topic.startsWith('$')) return "may not start with $ (the broker's own topics)";
  if (topic.includes('\u0000')) return 'may not contain a NUL character';
  return null;
}

export type ControllerStatus =
  | 'connecting'
  | 'online'
  | 'offline'
  | 'auth_failed'
  | 'api_disabled'
  | 'tls_changed'
  | 'rebooting'
  | 'error'
  /**
   * No password or token is available for it (no keychain, a locked one, or the entry is gone):
   * not polled (never with an empty password) until one is given (`controllers/providePassword`).
   */
  | 'password_needed';

export interface Identity {
  /** The controller's own name (`relay/name`). */
  controllerName: string;
  model: string;
  serial: string;
  firmware: string;
  relayFirmware: string;
  hostname: string | null;
}

export interface Capabilities {
  /** Firmware ≥ 1.10.11: `relay/set_outlet_transient_states/`. */
  simultaneousSwitching: boolean;
  /** Firmware ≥ 1.11.6.0: `system/reboot/`. */
  reboot: boolean;
  /** Firmware ≥ 1.10: access tokens. */
  tokens: boolean;
  /** The controller has meters. */
  meters: boolean;
  /** The logged-in user is an administrator (scripts, users, config). */
  isAdmin: boolean;
  /** Outlets as reported by the controller (never assumed to be 8). */
  outletCount: number;
  /** Per outlet (index 0 = outlet 1): may this user switch it. */
  outletAccess: boolean[];
}

export interface PendingChange {
  kind: 'state' | 'transientState' | 'cycle';
  /** The physical state asked for (for a cycle: on, after the off-time). */
  target: boolean;
  /** Epoch ms when Plugboard sent the request. */
  since: number;
}

/** One outlet as the controller reports it. */
export interface OutletReading {
  /** 1-based, as on the hardware label. */
  number: number;
  name: string;
  /** Persistent state: restored after a reboot or power loss. */
  state: boolean;
  /** Temporary state: reverts to `state` after a reboot. */
  transientState: boolean;
  /** What the relay is doing right now. Read-only; lags behind on-sequence and cycle delays. */
  physicalState: boolean;
  locked: boolean;
  critical: boolean;
  /** Per-outlet cycle off-time in seconds; null = the controller's default. */
  cycleDelay: number | null;
}

/** One outlet as the window sees it: the controller's reading plus what Plugboard knows about it. */
export interface OutletState extends OutletReading {
  /** The logged-in user may switch this outlet. */
  access: boolean;
  /** A change Plugboard asked for that the controller has not confirmed yet. */
  pending: PendingChange | null;
  /** While cycling: epoch ms when the off-time ends (for a countdown). */
  cycleEndsAt: number | null;
}

export type MeterQuantity = 'voltage' | 'current' | 'energy' | 'power' | 'temperature' | 'humidity' | 'other';

/** A meter reading in canonical units: V, A, kWh, W, °C, %. The UI converts °C to °F if asked. */
export interface MeterReading {
  /** The controller's key, e.g. `buses.0.voltage`. */
  key: string;
  name: string;
  quantity: MeterQuantity;
  bus: number | null;
  /** null: no reading (the controller sent `false`, null or no number). */
  value: number | null;
  unit: 'V' | 'A' | 'kWh' | 'W' | '°C' | '%' | '';
  /** The controller marks it internal (hidden unless asked for). */
  internal?: true;
  /** The entry's other fields (history, alarms, calibration…), kept as the controller sent them. */
  fields?: Record<string, unknown>;
}

export interface ScriptThread {
  id: string;
  label: string;
}

export interface ScriptsState {
  functions: string[];
  threads: ScriptThread[];
}

export interface DeviceUser {
  name: string;
  isAdmin: boolean;
  isAllowed: boolean;
  /** Index 0 = outlet 1. */
  outletAccess: boolean[];
}

/** The relay's timing in seconds (`relay/cycle_delay/`, `relay/sequence_delay/`); null: not readable. */
export interface RelayTiming {
  /** Default cycle off-time, used by outlets whose own cycle delay is null. */
  cycleDelay: number | null;
  /** Delay between outlets switched on together. */
  sequenceDelay: number | null;
}

/** Everything Plugboard knows about one controller right now. Pushed whole on every change. */
export interface ControllerState {
  id: string;
  status: ControllerStatus;
  /** Why the status is not `online`, in words. */
  problem: ContractError | null;
  identity: Identity | null;
  capabilities: Capabilities | null;
  outlets: OutletState[];
  /** null: no meters on this controller (or not read yet). */
  meters: MeterReading[] | null;
  /** null: not an admin, or not read yet. */
  scripts: ScriptsState | null;
  /** null: not an admin, or not read yet. */
  users: DeviceUser[] | null;
  sshEnabled: boolean | null;
  /** Read after each connect and after Plugboard changes it. */
  relayTiming: RelayTiming;
  /** Epoch ms of the last successful poll. */
  lastUpdate: number | null;
  /** Epoch ms when a reboot was requested; null when not rebooting. */
  rebootingSince: number | null;
  /**
   * Epoch ms of the next connection attempt while the controller fails (offline, error), as the
   * poll policy's back-off plans it: the window shows "retrying in N s". null or absent: none planned
   * (online, or paused until the person acts).
   */
  nextAttemptAt?: number | null;
}

export interface OutletRef {
  controllerId: string;
  /** 1-based. */
  outlet: number;
}

export interface Group {
  id: string;
  name: string;
  members: OutletRef[];
  /** A sequence: switched step by step; `members` are then its steps' outlets, in order. */
  kind?: 'sequence';
  steps?: SequenceStep[];
}

export interface OutletFailure {
  outlet: number;
  error: ContractError;
}

/** The result of an outlet action: which outlets were asked to change and which refused. */
export interface OutletActionResult {
  requested: number[];
  failed: OutletFailure[];
  /**
   * Not confirmed yet (present only when some are): the request went out, but the controller's answer
   * never came (it timed out), so the change is neither done nor failed. These outlets show as pending
   * until a poll settles them; the activity log then records whether the change happened.
   */
  unconfirmed?: number[];
}

export interface GroupRunResult {
  results: { controllerId: string; outlets: number[]; error: ContractError | null }[];
  /** A sequence's run, started (its steps follow as `sequence/progress` events); `results` is then empty. */
  runId?: string;
}

export type ActivityResult = 'ok' | 'error' | 'observed';

/**
 * The door a request came through: the desktop window or tray, the web window, the CLI, the pdudaemon
 * protocol (HTTP or TCP), the JSON API, MQTT commands (`…/set`), a group or sequence run, a script
 * Plugboard started; `outside` for a change seen on the unit that Plugboard did not make, `system` for
 * Plugboard's own doing.
 */
export const ACTIVITY_DOORS = [
  'window',
  'tray',
  'web',
  'cli',
  'pdudaemon-http',
  'pdudaemon-tcp',
  'json-api',
  'mqtt',
  'group',
  'sequence',
  'script',
  'outside',
  'system',
] as const;
export type ActivityDoor = (typeof ACTIVITY_DOORS)[number];

/** Who asked, and through which door: the OS user for the desktop and CLI, the token's name for the APIs. */
export interface Actor {
  door: ActivityDoor;
  who: string;
}

/**
 * What a caller may do, least first: `observer` reads (the read API, /metrics, reading through the link);
 * `operator` also switches, cycles, reserves (and releases its own reservations) and runs groups and
 * sequences; `admin` also manages users, SSH and the system, adds, moves and removes controllers, reuses
 * a saved secret and breaks others' reservations. Checked by the Core on every call (core/handlers/permissions.ts).
 */
export const ROLES = ['observer', 'operator', 'admin'] as const;
export type Role = (typeof ROLES)[number];

/**
 * How a caller showed who it is, for a refusal's words: a service token (`legacy-token`: its line names
 * no role, so it only reads), or none at all (the JSON API without tokens). Absent: the OS user who owns
 * the config folder, or a client known by its address (pdudaemon has no login).
 */
export type CallerCredential = 'token' | 'legacy-token' | 'none';

/** An Actor with the role the Core checks each of its calls against; a caller without one cannot exist. */
/**
 * Where a person's or a machine client's role applies; beyond it they may only look (an observer's
 * reads). Everything, or the outlets of some tags (a controller's tags), of some controllers, and some
 * single outlets, by the controllers' ids.
 */
export type Scope =
  | { kind: 'all' }
  | {
      kind: 'some';
      tags: readonly string[];
      controllers: readonly string[];
      outlets: readonly OutletRef[];
    };

export interface Caller extends Actor {
  role: Role;
  credential?: CallerCredential;
  /** Where the role applies; absent: everything. */
  scope?: Scope;
}

export interface ActivityEntry {
  id: number;
  /** Epoch ms. */
  time: number;
  controllerId: string;
  controllerName: string;
  outlet: number | null;
  /** Short verb phrase, e.g. "on", "off (temporary)", "cycle", "started script flash_a_light". */
  action: string;
  /** The door it came through (see ActivityDoor); `outside` for changes seen on the unit. */
  source: ActivityDoor;
  /** Who asked: an OS user, a token's name, "outside Plugboard" or "Plugboard". Null in entries older than 0.2. */
  who: string | null;
  result: ActivityResult;
  error: ContractError | null;
  /** The outlet's name when it was recorded; absent in older entries. */
  outletName?: string | null;
  /** One action over several outlets: every entry of it has the id of its first entry. */
  batch?: number;
  /**
   * A refusal (someone else's reservation, a role) repeated by the same client for the same thing within
   * a minute is one entry: how many times it was refused (1 or more). Absent on every other entry.
   */
  count?: number;
  /** With `count`: epoch ms of the last refusal counted (`time` is the first). */
  lastTime?: number;
}

export interface MeterHistory {
  key: string;
  unit: MeterReading['unit'];
  /** Epoch seconds, ascending. */
  t: number[];
  v: (number | null)[];
}

export interface MeterThreshold {
  controllerId: string;
  key: string;
  min: number | null;
  max: number | null;
}

export interface Settings {
  /** Steady poll interval per controller, ms. */
  pollIntervalMs: number;
  /**
   * The outlet poll interval, ms, of a controller whose unit publishes its outlet changes over MQTT (its
   * `mqttTopic` set, and a message of it heard since the topic was set): the safety read that catches a
   * missed message. Never shorter than `pollIntervalMs`; meters keep `pollIntervalMs`.
   */
  unitSafetyPollMs: number;
  temperatureUnit: 'C' | 'F';
  theme: 'system' | 'light' | 'dark';
  notifications: { offline: boolean; outsideChanges: boolean; meterThresholds: boolean };
  meterThresholds: MeterThreshold[];
  /**
   * How long a meter's reads must stay outside its limits before it counts as a breach, and back inside
   * before the breach ends (Grafana's "for"), so a reading that hovers at its limit does not flip in
   * and out: 0–3600 s.
   */
  meterLimitHoldSeconds: number;
  /**
   * Outlets pinned to the tray: this computer's, and on a desk the outlets of the labs it attaches to
   * (`lab` names the lab; the lab's own settings are not touched, a desk's favourites are its person's).
   */
  trayFavourites: FavouriteRef[];
  /** Start the desktop app at login (its tray); off by default. */
  startAtLogin: boolean;
  /** Overview: one dense row per controller instead of a tile; off by default. */
  overviewCompact: boolean;
  /** How long the activity log keeps an entry, in days (default 400: a year and a season to compare with). */
  activityRetentionDays: number;
}

/** What a fresh install starts with: 3 s polling (30 s for the outlets of a unit that publishes them over MQTT), °C, the system theme, every notification on, meter limits held 15 s, nothing pinned, not started at login. */
export const DEFAULT_SETTINGS: Readonly<Settings> = {
  pollIntervalMs: 3000,
  unitSafetyPollMs: 30_000,
  temperatureUnit: 'C',
  theme: 'system',
  notifications: { offline: true, outsideChanges: true, meterThresholds: true },
  meterThresholds: [],
  meterLimitHoldSeconds: 15,
  trayFavourites: [],
  startAtLogin: false,
  overviewCompact: false,
  activityRetentionDays: 400,
};

export interface AppInfo {
  name: string;
  version: string;
  shell: 'electron' | 'web' | 'cli' | 'serve' | 'test';
  platform: string;
  /**
   * Where passwords and tokens are kept: the system keychain, or this session only (no keychain
   * answered: forgotten when Plugboard stops). Absent: not said (an older Core).
   */
  secrets?: 'keychain' | 'session';
  /** What the keychain said when it did not answer (secrets are then kept for this session only). */
  keychainWhy?: string;
}

/** Everything the window needs to draw itself at start, in one call. */
export interface AppSnapshot {
  info: AppInfo;
  controllers: ControllerSummary[];
  states: ControllerState[];
  groups: Group[];
  settings: Settings;
}

export type DiscoverySource = 'mdns' | 'ssdp' | 'probe';

export interface DiscoveredController {
  /** Base address to add, `http://host:port`. */
  url: string;
  host: string;
  port: number;
  name: string | null;
  serial: string | null;
  model: string | null;
  sources: DiscoverySource[];
  /** Id of the saved controller at that address, if any. */
  savedId: string | null;
}

export interface DiscoveryProgress {
  runId: string;
  /** Addresses probed so far and in all (range probe only; 0/0 otherwise). */
  probed: number;
  total: number;
  done: boolean;
  results: DiscoveredController[];
  error: ContractError | null;
}

/** The tray asks the window to confirm switching critical outlets off. */
export interface ConfirmRequest {
  /** The lab whose outlets these are (a desk's tray favourite of a lab); absent: this computer's. */
  lab?: string;
  controllerId: string;
  outlets: number[];
  action: 'off' | 'cycle';
  reason: string;
}

export interface TreeNode {
  path: string;
  depth: number;
  value: unknown;
}

/**
 * AutoPing: the controller pings addresses and power-cycles outlets when they stop
 * answering. What one item does and how it is doing.
 */
export type AutopingStatus = 'disabled' | 'waiting' | 'ok' | 'failing' | 'rebooting' | 'halted';

/** The editable fields of an AutoPing item. Outlets are 1-based, as on the hardware label. */
export interface AutopingItemInput {
  /** 1 to 8 host names or IP addresses; the item counts as answering when any of them answers. */
  addresses: string[];
  /** 1-based outlet numbers to power-cycle when the addresses stop answering. */
  outlets: number[];
  enabled: boolean;
  /** Answered pings in a row before the item arms; null: the controller's global setting. */
  pingsBeforeEnabling: number | null;
  /** After a power cycle, wait for answered pings again before re-arming. */
  resumptionTrial: boolean;
  /** A user function to run instead of the power cycle; '' = power-cycle the outlets. */
  script: string;
}

export interface AutopingItem extends AutopingItemInput {
  /** 1-based position in the controller's list (the controller's own index + 1). */
  number: number;
  /** As the controller reports it; an unknown word is kept as it is. */
  status: AutopingStatus | (string & {});
}

// ---------- reservations ----------

/** What a reservation covers: one outlet, a group's outlets, or every outlet of a controller. */
export type ReservationTarget =
  | { kind: 'outlet'; controllerId: string; outlet: number }
  | { kind: 'group'; groupId: string }
  | { kind: 'controller'; controllerId: string };

/** One outlet a reservation covers, or (`outlet: null`) every outlet of a controller. */
export interface ReservationCell {
  controllerId: string;
  outlet: number | null;
}

/**
 * A reservation: while it lasts, only its holder (the same `who`, through any door) may switch what it
 * covers; anyone else is refused with RESERVED. Not the unit's own `locked` flag (LOCKED).
 */
export interface Reservation {
  id: string;
  /** What was asked for (a group is named by its id: it may be changed or removed later). */
  target: ReservationTarget;
  /**
   * What it covers, fixed when it was taken: a group's members then, not now; a controller as one
   * whole-controller cell. Editing or removing the group later changes nothing here.
   */
  covers: ReservationCell[];
  /** Who holds it: the Actor's `who` (an OS user, a token's name). */
  holder: string;
  /** The door it was taken through. */
  door: ActivityDoor;
  reason: string;
  /** Epoch ms. */
  createdAt: number;
  /** Epoch ms; past it the reservation is gone. */
  expiresAt: number;
}

// ---------- meter limit breaches ----------

/**
 * A meter outside the limits saved for it (settings `meterThresholds`), as the Core last read it. The
 * window, the web window and the tray all show the Core's list, so they agree.
 */
export interface LimitBreach {
  controllerId: string;
  /** The meter's key, as in `MeterReading.key`. */
  key: string;
  /** The meter's name as the controller reports it. */
  name: string;
  /** Canonical unit (°C for temperatures; the UI converts). */
  unit: MeterReading['unit'];
  side: 'above' | 'below';
  /** The latest reading, canonical units. */
  value: number;
  /** The limit it crossed (the maximum when above, the minimum when below), canonical units. */
  limit: number;
  /** Epoch ms of the first read outside the limit in this episode. */
  since: number;
  /**
   * Epoch ms of the first read back inside, while the breach waits out the hold time before it ends
   * (`Settings.meterLimitHoldSeconds`); null while the reads are outside. `value` stays the last read outside.
   */
  insideSince: number | null;
}

// ---------- sequences ----------

/**
 * What a sequence step waits for before the next step: a delay in seconds, or the controller confirming
 * the step's outlets in their new physical state (given up after `timeoutSeconds`, which stops the run).
 */
export type SequenceWait = { kind: 'delay'; seconds: number } | { kind: 'confirmed'; timeoutSeconds: number };

/** One step of a sequence: one or several outlets of one controller, switched with one request. */
export interface SequenceStep {
  controllerId: string;
  /** 1-based. */
  outlets: number[];
  wait: SequenceWait;
}

export type SequenceRunStatus = 'running' | 'done' | 'failed' | 'aborted' | 'stopped' | 'killed';
export type SequenceStepStatus = 'waiting' | 'switching' | 'confirming' | 'done' | 'failed' | 'skipped';

export interface SequenceRunStep extends SequenceStep {
  controllerName: string;
  status: SequenceStepStatus;
  error: ContractError | null;
}

/** One line of a run's timeline: a step started, was confirmed, failed, waits N s; the run ended. */
export interface SequenceTimelineEntry {
  /** Epoch ms. */
  time: number;
  /** 1-based step in run order; null for the run itself. */
  step: number | null;
  kind: 'started' | 'switched' | 'confirmed' | 'waiting' | 'failed' | 'aborted' | 'stopped' | 'done';
  text: string;
}

/** A sequence run, pushed whole on every change (`sequence/progress`). Steps are in run order (reversed for off). */
export interface SequenceRun {
  runId: string;
  groupId: string;
  name: string;
  action: 'on' | 'off';
  who: string;
  door: ActivityDoor;
  /** Epoch ms. */
  startedAt: number;
  endedAt: number | null;
  status: SequenceRunStatus;
  steps: SequenceRunStep[];
  /** 1-based step being run (or the last one run); 0 before the first. */
  current: number;
  /** While waiting between steps: epoch ms when the next step starts (a delay) or the wait gives up. */
  waitingUntil: number | null;
  /** How it ended, in a sentence (null while running). */
  message: string | null;
  timeline: SequenceTimelineEntry[];
}

// ---------- bulk add and CSV import ----------

/** The most controllers one `controllers/addMany` or one CSV import takes (the contract says 256 too). */
export const MAX_BULK_UNITS = 256;

/** One unit of a bulk add: saved (`added`) or refused with the reason (`error`), never half of it. */
export interface BulkAddResult {
  url: string;
  /** The name asked for, if any. */
  name: string | null;
  added: ControllerSummary | null;
  /** Why it was not added: wrong password, not a controller, already saved, TLS_UNTRUSTED (detail.fingerprint)… */
  error: ContractError | null;
}

/** One data row of an imported CSV file, as read; rows with problems are not added. */
export interface CsvImportRow {
  /** The row's line in the file (the header is line 1). */
  line: number;
  name: string;
  /** The address as written. */
  address: string;
  /** The address to add, `http[s]://host[:port]`; null when it is not an address. */
  url: string | null;
  /** The user to log in as; '' = the import's user. */
  user: string;
  tags: string[];
  fingerprint: string | null;
  /** What is wrong with the row, one sentence each (bad address, duplicate, already saved…). */
  problems: string[];
}

export interface CsvImportPreview {
  rows: CsvImportRow[];
  /** The user names the rows give (without ''), each needing its password once. */
  users: string[];
}

// ---------- fleet inventory ----------

/** One controller in the fleet inventory: what it is, what it runs, and how it is set up. */
export interface InventoryRow {
  controllerId: string;
  name: string;
  status: ControllerStatus;
  /** The values are the last known: the controller is not online now. */
  stale: boolean;
  model: string | null;
  serial: string | null;
  firmware: string | null;
  relayFirmware: string | null;
  /** null: not readable (Plugboard does not log in as an administrator) or not read yet. */
  sshEnabled: boolean | null;
  userCount: number | null;
  outletsOn: number | null;
  outletCount: number | null;
  /** Epoch ms of the last successful poll; null: never seen. */
  lastSeen: number | null;
  /** The newest firmware seen on another controller of the same model, when this one runs an older one. */
  firmwareBehind: string | null;
  /** Likewise for the relay firmware. */
  relayFirmwareBehind: string | null;
}

// ---------- labs a desk attaches to ----------

/** An outlet pinned to the tray: this computer's (no `lab`), or one of a lab's, by the lab's id. */
export interface FavouriteRef extends OutletRef {
  lab?: string;
}

/**
 * How a desk reaches a lab: `signed-out` (no session: sign in), `connecting`, `online` (the lab's
 * states are live), `offline` (the service cannot be reached or refused the session: what the window
 * shows of the lab is what was last known, and nothing is offered that would switch).
 */
export type LabStatus = 'signed-out' | 'connecting' | 'online' | 'offline';

/** Who a caller is to the Core that answers (`app/whoami`): a desk shows it beside a lab's name. */
export interface CallerInfo {
  /** The account's, token's or OS user's name, as the activity log names it. */
  who: string;
  /** An account's display name; the name otherwise. */
  displayName: string;
  role: Role;
  scope: Scope;
  door: ActivityDoor;
}

/** A lab service a desk attaches to, as the desk's window sees it (never its session). */
export interface LabSummary {
  /** The lab's id on this desk: the first part of its pages' addresses (`#/<id>/overview`). */
  id: string;
  /** The lab's name (the service's `--name`, or its host). */
  name: string;
  addresses: string[];
  fingerprints: string[];
  status: LabStatus;
  /** The service answering now (a lab with a standby follows its leader). */
  service: string | null;
  /** Who this desk is signed in as; null when signed out. */
  account: CallerInfo | null;
  /** Sign-in through the lab's identity provider, when the service offers it: the provider's label. */
  provider: { label: string } | null;
  /** Epoch ms of the last answer from the lab; null: never reached. */
  lastSeen: number | null;
  /** Why it is offline or signed out (a refused session, an unreachable service, a changed certificate). */
  problem: ContractError | null;
}

/** One event of a lab's Core, passed on by the desk. */
export interface LabEvent {
  lab: string;
  name: string;
  payload: unknown;
}

// ---------- accounts ----------

/** A person or machine client who signs in to a lab service, as an administrator sees them (never a password). */
export interface AccountSummary {
  /** Letters, digits, `.`, `_` or `-`, lower case: what they sign in with and how the log names them. */
  name: string;
  displayName: string;
  role: Role;
  scope: Scope;
  /** Epoch ms. */
  createdAt: number;
  disabled: boolean;
  /** Whether a password is set (an account may sign in only through an identity provider). */
  hasPassword: boolean;
  /** Sessions signed in now (not expired, not revoked). */
  sessions: number;
}
