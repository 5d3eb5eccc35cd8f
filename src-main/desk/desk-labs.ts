/** What the desk's lab calls (desk-handlers.ts) use of the desk: its labs, and the ports it was given. */
import type { LabSummary } from '../../src-preload/model';
import type { SessionKeychain } from '../link/service-session';
import type { Logger } from '../shared/logging';
import type { LabConnection } from './lab-connection';
import type { LabRecord } from './lab-records';

/**
 * Sign-in through a lab's identity provider in the system browser (link/provider-sign-in.ts): resolves
 * with the session the service gave and its account once the person signed in.
 */
export type ProviderSignIn = (
  service: { url: string; fingerprint: string | undefined },
  openBrowser: (url: string) => Promise<void>,
) => Promise<{ session: string; account: { name: string; displayName?: string; role?: string } }>;

export type DeskLabs = {
  summaries(): LabSummary[];
  find(id: string): LabConnection;
  add(record: Omit<LabRecord, 'id' | 'order'>): LabConnection;
  remove(id: string): Promise<void>;
  all(): LabConnection[];
  signInWithProvider: ProviderSignIn | undefined;
  openBrowser: ((url: string) => Promise<void>) | undefined;
  log: Logger;
  secrets: SessionKeychain;
  changed(): void;
};
