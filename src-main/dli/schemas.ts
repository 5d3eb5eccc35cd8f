/**
 * Shapes of the controller's answers. Loose objects: units add fields between firmware versions, and
 * only the fields Plugboard uses are checked. Text the controller chose (its name, outlet names, user
 * names, script labels) is neutralised on arrival: a hostile or broken unit cannot put a terminal
 * escape, a forged log line or a text-direction override into the window, the CLI or pdudaemon answers.
 */
import * as v from 'valibot';
import { neutralise, TEXT_LIMITS } from '../shared/text';

/** Text from the controller, neutralised and bounded. */
const unitText = (max: number) =>
  v.pipe(
    v.string(),
    v.transform((text: string) => neutralise(text, max)),
  );

export const outletSchema = v.looseObject({
  name: unitText(TEXT_LIMITS.unitName),
  state: v.boolean(),
  transient_state: v.boolean(),
  physical_state: v.boolean(),
  locked: v.optional(v.boolean(), false),
  critical: v.optional(v.boolean(), false),
  cycle_delay: v.optional(v.nullable(v.number()), null),
});

export const outletsSchema = v.array(outletSchema);

/** A text value such as `config/version/`; some units answer a one-element array (matrix form). */
export const textSchema = v.pipe(
  v.union([
    v.string(),
    v.pipe(
      v.tuple([v.string()]),
      v.transform(([text]) => text),
    ),
  ]),
  v.transform((text: string) => neutralise(text, TEXT_LIMITS.unitText)),
);

export const booleanSchema = v.union([
  v.boolean(),
  v.pipe(
    v.tuple([v.boolean()]),
    v.transform(([flag]) => flag),
  ),
]);

export const credSchema = v.looseObject({
  name: v.optional(v.nullable(unitText(TEXT_LIMITS.unitName)), null),
  is_admin: v.optional(v.boolean(), false),
  outlet_access: v.optional(v.array(v.boolean())),
});

export const userSchema = v.looseObject({
  name: unitText(TEXT_LIMITS.unitName),
  is_admin: v.optional(v.boolean(), false),
  is_allowed: v.optional(v.boolean(), true),
  outlet_access: v.optional(v.array(v.boolean()), []),
});

export const usersSchema = v.array(userSchema);

/** `script/user_functions/`: a map keyed by function name (an array of names is accepted too). */
export const userFunctionsSchema = v.pipe(
  v.union([
    v.pipe(
      v.record(v.string(), v.unknown()),
      v.transform((map) => Object.keys(map)),
    ),
    v.array(v.string()),
  ]),
  v.transform((names: string[]) => names.map((name) => neutralise(name, TEXT_LIMITS.unitName))),
);

/** `script/threads/`: a map keyed by thread id, e.g. `{"9":{"label":"…"}}`. */
export const threadsSchema = v.record(
  v.string(),
  v.union([
    v.looseObject({ label: v.optional(v.nullable(unitText(TEXT_LIMITS.unitText)), null) }),
    unitText(TEXT_LIMITS.unitText),
    v.null(),
  ]),
);

/** `script/start/` answers the new thread's id as a JSON string (a number is accepted). */
export const threadIdSchema = v.union([
  v.pipe(v.string(), v.minLength(1)),
  v.pipe(
    v.number(),
    v.transform((n) => String(n)),
  ),
]);

/**
 * `meter/values/`: a map keyed by meter id (`buses.0.voltage`, or platform-specific ids such as
 * `mains_voltage` in DLI's object model). Entries are read one by one in meters.ts, so one entry of an
 * unexpected shape (a `false` value where there is no reading) never hides the others.
 */
export const meterValuesSchema = v.record(v.string(), v.unknown());

/** A 207 answer: one entry per selected element; `{status, error}` where that element failed. */
export const multiStatusSchema = v.array(v.unknown());

/** A 409 from `set_outlet_transient_states` naming the outlets (API indices) that refused. */
export const refusedOutletsSchema = v.looseObject({
  error: v.optional(v.string()),
  outlets: v.optional(v.array(v.pipe(v.number(), v.integer(), v.minValue(0)))),
});
