/**
 * The saved controllers: listing, adding one or many (a CSV import included), changing, trusting a new
 * certificate, reordering, refreshing and removing them, and their secrets (the "password needed" prompt,
 * where a secret lives). Secrets travel only towards main: a password can be given, never read back.
 */
import * as v from 'valibot';
import type { BulkAddResult, ControllerState, ControllerSummary, CsvImportPreview } from '../model';
import {
  call,
  controllerId,
  id,
  controllerUrl,
  fingerprint,
  name,
  secret,
  userName,
  colour,
  controllerAlias,
  controllerTags,
  mqttTopicRoot,
  authInput,
  empty,
  onController,
} from './blocks';

export const controllerCalls = {
  /** The saved controllers in their tab order (no secrets). */
  'controllers/list': call(empty).returns<ControllerSummary[]>(),
  /** Verify (identity, firmware, admin, capabilities) and save. TLS_UNTRUSTED carries the fingerprint to accept. */
  'controllers/add': call(
    v.strictObject({
      name: v.optional(name),
      url: controllerUrl,
      auth: authInput,
      fingerprint: v.optional(fingerprint),
      colour: v.optional(colour),
      alias: v.optional(controllerAlias),
      tags: v.optional(controllerTags),
      /** The topic root the unit publishes its outlet changes under (MQTT); absent: it does not. */
      mqttTopic: v.optional(v.nullable(mqttTopicRoot)),
    }),
  ).returns<ControllerSummary>(),
  /**
   * Verify and save many controllers with one set of credentials, at most 8 at a time; one result per
   * unit in the order given. Each unit is saved with its secret, bound to its own address and login, or
   * not at all. The secrets go only to the units listed: a unit with its own `user` logs in with
   * `passwords[user]` (or auth's password when it is auth's user). A unit refused with TLS_UNTRUSTED
   * carries detail.fingerprint: give it back as the unit's `fingerprint` to accept it.
   */
  'controllers/addMany': call(
    v.strictObject({
      units: v.pipe(
        v.array(
          v.strictObject({
            url: controllerUrl,
            name: v.optional(name),
            user: v.optional(userName),
            tags: v.optional(controllerTags),
            fingerprint: v.optional(fingerprint),
          }),
        ),
        v.minLength(1, 'select at least one controller'),
        v.maxLength(256, 'has more than 256 controllers (MAX_BULK_UNITS)'),
      ),
      auth: authInput,
      passwords: v.optional(v.record(userName, secret)),
      /** Name this run: `controllers/addManyProgress` events carrying it count the units checked. */
      progressId: v.optional(id),
    }),
  ).returns<BulkAddResult[]>(),
  /**
   * Read a CSV file's text (columns name, address, user, tags, fingerprint; a header row first) into the
   * rows to add, each with its problems. Nothing is saved. A password, secret or token column is refused.
   */
  'controllers/importPreview': call(
    v.strictObject({ text: v.pipe(v.string(), v.maxLength(1_000_000, 'is larger than 1 MB')) }),
  ).returns<CsvImportPreview>(),
  /**
   * Change the saved address, name, colour or credentials (omitted password = keep the stored one). A
   * stored secret goes only where it was saved for: a new address, scheme, login method, user or
   * certificate without a new secret needs `reuseSecret: true` (else BAD_INPUT, detail.confirmSecret).
   */
  'controllers/update': call(
    v.strictObject({
      id: controllerId,
      name: v.optional(name),
      url: v.optional(controllerUrl),
      auth: v.optional(authInput),
      fingerprint: v.optional(v.nullable(fingerprint)),
      colour: v.optional(colour),
      /** null removes the alias. */
      alias: v.optional(v.nullable(controllerAlias)),
      /** Replaces every tag; [] removes them. */
      tags: v.optional(controllerTags),
      /** The topic root the unit publishes its outlet changes under (MQTT); null: it does not. */
      mqttTopic: v.optional(v.nullable(mqttTopicRoot)),
      reuseSecret: v.optional(v.literal(true)),
    }),
  ).returns<ControllerSummary>(),
  /**
   * Pin a new certificate after TLS_CHANGED, once the person has checked it; the stored secret goes to
   * it only with `reuseSecret: true`, or give the password or token again as `secret`.
   */
  'controllers/trustCertificate': call(
    v.strictObject({
      id: controllerId,
      fingerprint,
      reuseSecret: v.optional(v.literal(true)),
      secret: v.optional(secret),
    }),
  ).returns<ControllerSummary>(),
  /** New tab order: the ids given come first in that order, any not named keep theirs after them. */
  'controllers/reorder': call(
    v.strictObject({ ids: v.pipe(v.array(controllerId), v.maxLength(500)) }),
  ).returns<ControllerSummary[]>(),
  /** Poll now. */
  'controllers/refresh': call(v.strictObject({ id: controllerId })).returns<null>(),
  /**
   * What only an administrator's login reads (scripts and threads, users, SSH), read now unless the
   * slow schedule read it within its interval: that schedule runs only while a window shows the
   * controller. Resolves with the state once they are in; the unit's refusal or failure otherwise.
   */
  'controllers/readAdmin': call(v.strictObject({ id: controllerId })).returns<ControllerState>(),
  /** Forget a controller and its stored secret. */
  'controllers/remove': call(v.strictObject({ id: controllerId })).returns<null>(),
  /**
   * Give the password of `user` to every controller that needs one and logs in as that user (or only
   * `ids`). It is checked against each first; `remember` keeps it in the keychain (when there is one),
   * otherwise it lasts until Plugboard stops. One result per controller; `ok: false` ones still need it.
   */
  'controllers/providePassword': call(
    v.strictObject({
      user: userName,
      password: secret,
      ids: v.optional(v.pipe(v.array(controllerId), v.minLength(1), v.maxLength(1000))),
      remember: v.boolean(),
    }),
  ).returns<{ results: { id: string; name: string; ok: boolean; message: string | null }[] }>(),
  /**
   * Where a saved controller's secret lives now: the system keychain, this session only (no keychain,
   * or not remembered), missing (needs one), or none (the controller was saved without one).
   */
  'controllers/secretWhere': call(onController).returns<{
    where: 'keychain' | 'session' | 'missing' | 'none';
  }>(),
} as const;
