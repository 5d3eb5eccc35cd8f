/**
 * Labs: the lab services a desk attaches to. The desk's own Core ("This computer") answers the
 * `labs/*` calls; each lab is another Core, reached through its service's remote link, never by
 * talking to the lab's units. The window addresses a lab's Core through `labs/call` (the same contract,
 * one level down) and hears its events as `labs/event`. A Core that is itself a lab service (or a CLI)
 * attaches to no lab and refuses these calls.
 *
 * The session a sign-in gives is kept in the OS keychain by the desk, bound to the service's address and
 * certificate; it never crosses into the window.
 */
import * as v from 'valibot';
import type { LabSummary } from '../model';
import { call, empty, fingerprint, id } from './blocks';

/** A lab service's `api` listener as the service printed it: `https://host:port` (or `http://` on loopback). */
export const serviceAddress = v.pipe(
  v.string(),
  v.trim(),
  v.url('must be an address like https://lab.example:16422'),
  v.check((s) => /^https?:\/\//i.test(s), 'must start with https:// (or http://)'),
  v.maxLength(2048),
);

const accountName = v.pipe(
  v.string(),
  v.trim(),
  v.toLowerCase(),
  v.regex(/^[a-z0-9._-]{1,64}$/, 'must be 1–64 letters, digits, ".", "_" or "-"'),
);

export const labCalls = {
  /** The labs this desk attaches to, in the sidebar's order, with how each is reached now. */
  'labs/list': call(empty).returns<LabSummary[]>(),
  /**
   * Attach to a lab: its service's address(es) (a leader and its standbys, or one name that moves) and
   * the certificate fingerprint(s) the services printed (one shared certificate, or one per service).
   * The desk checks that a Plugboard service answers there with that certificate before keeping it; it
   * is then signed out until `labs/signIn`.
   */
  'labs/add': call(
    v.strictObject({
      addresses: v.pipe(v.array(serviceAddress), v.minLength(1, 'give the service address'), v.maxLength(8)),
      fingerprints: v.optional(v.pipe(v.array(fingerprint), v.maxLength(8))),
    }),
  ).returns<LabSummary>(),
  /** Sign in to a lab with an account's name and password; the session goes to the keychain. */
  'labs/signIn': call(
    v.strictObject({
      lab: id,
      name: accountName,
      password: v.pipe(v.string(), v.minLength(1, 'is empty'), v.maxLength(1024, 'is too long')),
    }),
  ).returns<LabSummary>(),
  /** Sign in through the lab's identity provider, in the system browser; resolves once signed in. */
  'labs/signInWithProvider': call(v.strictObject({ lab: id })).returns<LabSummary>(),
  /** End this desk's session with the lab (the service forgets it, the keychain entry is deleted). */
  'labs/signOut': call(v.strictObject({ lab: id })).returns<LabSummary>(),
  /** Detach from a lab: signs out first; the lab's favourites on this desk go too. */
  'labs/remove': call(v.strictObject({ lab: id })).returns<null>(),
  /**
   * One call of the contract made on a lab's Core, as the person signed in there. The answer is the
   * lab's own, its refusals in its words. While the lab cannot be reached, `app/snapshot` answers what
   * was last known (the lab's `status` says so) and everything else is refused UNREACHABLE: nothing is
   * ever sent to the lab's units another way.
   */
  'labs/call': call(
    v.strictObject({
      lab: id,
      name: v.pipe(
        v.string(),
        v.regex(/^[a-z]+\/[A-Za-z]+$/, 'must be a call name like outlets/set'),
        v.check((s) => !s.startsWith('labs/'), 'must be a call of the lab, not labs/…'),
      ),
      input: v.optional(v.unknown()),
    }),
  ).returns<unknown>(),
} as const;
