/**
 * The contract's building blocks: the input schemas more than one domain uses (ids, names, outlet numbers,
 * addresses, logins) and `call`, which pairs a call's input schema with its result type. Each domain's
 * calls are in a file of their own beside this one; contract.ts assembles them.
 */
import * as v from 'valibot';
import { cleanMqttTopic, mqttTopicProblem } from '../model';
import { neutraliseText, unsafeCharacterIn } from '../words';

/**
 * Text people type that Plugboard shows everywhere and matches on (names, aliases, tags, ids): refused
 * when it holds a control or text-direction character, so a name cannot carry a terminal escape, forge
 * a log line or read differently from what it is. Refused rather than cleaned: a name must be exactly
 * what was typed, and two names must not look alike while being different.
 */
export const printable = v.check(
  (text: string) => unsafeCharacterIn(text) === null,
  (issue) =>
    `contains ${unsafeCharacterIn(String(issue.input)) ?? 'a control character'}: type it without control characters or text-direction marks`,
);

/**
 * Free prose (a reservation's reason): cleaned instead of refused. A reason pasted from a ticket may hold
 * a line break or a tab; as spaces it means the same, and it can no longer carry anything else.
 */
export const prose = (max: number) =>
  v.pipe(
    v.string(),
    v.transform((text: string) => neutraliseText(text, max * 4)),
    v.trim(),
    v.minLength(1, 'give a reason'),
    v.maxLength(max, 'is too long'),
  );

export const id = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(64, 'is too long'),
  printable,
);

export const controllerId = id;

/** An outlet number as printed on the hardware: 1, 2, … (the controller reports how many). */
export const outletNumber = v.pipe(
  v.number('must be an outlet number'),
  v.integer('must be a whole outlet number'),
  v.minValue(1, 'outlets are numbered from 1'),
  v.maxValue(64, 'no controller has that many outlets'),
);

/** A cycle off-time in whole seconds (outlet or relay): 1 s to an hour. */
export const cycleDelaySeconds = v.pipe(
  v.number('must be a number of seconds'),
  v.integer('must be whole seconds'),
  v.minValue(1, 'must be at least 1 second'),
  v.maxValue(3600, 'must be at most 3600 seconds (an hour)'),
);

export const outletSelection = v.union(
  [
    v.literal('all'),
    v.pipe(v.array(outletNumber), v.minLength(1, 'select at least one outlet'), v.maxLength(64)),
  ],
  'must be "all" or a list of outlet numbers',
);

/** `http://host[:port]` or `https://…`; a path, if any, is ignored by the client. */
export const controllerUrl = v.pipe(
  v.string(),
  v.trim(),
  v.url('must be an address like http://192.168.0.100'),
  v.check((s) => /^https?:\/\//i.test(s), 'must start with http:// or https://'),
  v.maxLength(2048),
);

export const fingerprint = v.pipe(
  v.string(),
  v.trim(),
  v.regex(/^([0-9A-Fa-f]{2}:?){31}[0-9A-Fa-f]{2}$/, 'must be a SHA-256 fingerprint (64 hex digits)'),
);

export const name = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(64, 'is longer than 64 characters'),
  printable,
);

export const secret = v.pipe(v.string(), v.minLength(1, 'is empty'), v.maxLength(256, 'is too long'));

export const userName = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(64, 'is too long'),
  v.regex(/^[^\s:]+$/, 'may not contain spaces or colons'),
  printable,
);

export const colour = v.pipe(v.string(), v.regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour like #3b82f6'));

/** A controller's alias, the `hostname` pdudaemon's clients (labgrid, LAVA) name it by: one word, no spaces. */
export const controllerAlias = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(64, 'is longer than 64 characters'),
  v.regex(/^[^\s]+$/, 'may not contain spaces (pdudaemon clients split on them)'),
  printable,
);

/** The MQTT topic root a unit publishes its outlets under (model.ts, mqttTopicProblem). */
export const mqttTopicRoot = v.pipe(
  v.string(),
  v.transform(cleanMqttTopic),
  v.check(
    (topic: string) => mqttTopicProblem(topic) === null,
    (issue) => mqttTopicProblem(String(issue.input)) ?? 'is not a topic root',
  ),
  printable,
);

/**
 * A controller's tags: where it is and what it is for ("rack 7", "bench", "ci"), shown and
 * filtered in the sidebar and Overview. Each 1–40 characters without commas or semicolons (a CSV
 * import separates tags with ";"); at most 16 per controller, duplicates (any case) removed.
 */
export const MAX_CONTROLLER_TAGS = 16;

export const controllerTag = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, 'is empty'),
  v.maxLength(40, 'is longer than 40 characters'),
  v.regex(/^[^,;]+$/, 'may not contain commas or semicolons'),
  printable,
);

export const controllerTags = v.pipe(
  v.array(controllerTag),
  v.maxLength(MAX_CONTROLLER_TAGS, `has more than ${MAX_CONTROLLER_TAGS} tags`),
);

/** The longest wait `outlets/cycle` accepts between switching off and on again, seconds (pdudaemon's reboot). */
export const MAX_CYCLE_WAIT_SECONDS = 300;

/** pdudaemon's reboot delay: whole seconds 0–300 between Plugboard switching an outlet off and on. */
export const cycleWaitSeconds = v.pipe(
  v.number('must be a number of seconds'),
  v.integer('must be whole seconds'),
  v.minValue(0, 'must be 0 seconds or more'),
  v.maxValue(MAX_CYCLE_WAIT_SECONDS, `must be at most ${MAX_CYCLE_WAIT_SECONDS} seconds`),
);

export const authInput = v.variant('kind', [
  v.strictObject({ kind: v.literal('digest'), user: userName, password: v.optional(secret) }),
  v.strictObject({ kind: v.literal('basic'), user: userName, password: v.optional(secret) }),
  v.strictObject({ kind: v.literal('token'), token: v.optional(secret) }),
]);

export const outletRef = v.strictObject({ controllerId, outlet: outletNumber });

export const empty = v.strictObject({});

export const onController = v.strictObject({ controllerId });

export interface CallSpec<I extends v.GenericSchema, R> {
  input: I;
  /** Phantom: carries the result type only. */
  result: R;
}
export function call<I extends v.GenericSchema>(input: I) {
  return { returns: <R>(): CallSpec<I, R> => ({ input, result: undefined as R }) };
}

/**
 * The person confirmed that critical outlets may lose power (go off, or cycle). Without it the Core
 * refuses such a switch with CRITICAL_UNCONFIRMED, whatever the door; a door passes what the person said.
 */
export const confirmCritical = v.optional(v.boolean());
