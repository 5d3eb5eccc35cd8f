/**
 * Secrets kept for this run only: a password given at the "password needed" prompt without "remember",
 * or one the keychain refused to save. Each is bound to the place it was given for (address, login,
 * user, certificate: registry-envelope.ts) and never sent anywhere else; nothing is written to disk.
 */
import type { ControllerSummary } from '../../../src-preload/model';
import { boundPlaceChanges, placeOf } from './registry-envelope';
import type { SecretPlace } from './secret-binding';

export class SessionSecrets {
  readonly #kept = new Map<string, { secret: string; place: SecretPlace }>();

  /** Keep `secret` for this controller as it is now (its place). */
  keep(summary: ControllerSummary, secret: string): void {
    this.#kept.set(summary.id, { secret, place: placeOf(summary) });
  }

  /** The kept secret when `summary` still names the place it was given for; else null. */
  get(summary: ControllerSummary): string | null {
    const kept = this.#kept.get(summary.id);
    if (!kept) return null;
    return boundPlaceChanges(kept.place, summary).length === 0 ? kept.secret : null;
  }

  has(summary: ControllerSummary): boolean {
    return this.get(summary) !== null;
  }

  forget(id: string): void {
    this.#kept.delete(id);
  }
}
