/**
 * The labs a desk attaches to, kept in the desk's own config.json under `labs`: each lab's id, name,
 * addresses, certificate fingerprints and order in the sidebar. Never a session: that is in the
 * keychain (link/service-session.ts), bound to the addresses and fingerprints kept here.
 */
import type { KeyValueStore } from '../core/index';
import type { ServiceAddress } from '../link/service-address';

export const LABS_KEY = 'labs';

export interface LabRecord {
  /** `lab-` and 8 lowercase hex digits, random when the lab was added. */
  id: string;
  name: string;
  addresses: string[];
  /** Empty, one for every address, or one per address (normalised AB:CD:…). */
  fingerprints: string[];
  order: number;
}

/** The kept labs in their order; an entry that is not a lab (a hand-edited file) is skipped. */
export function readLabs(store: KeyValueStore): LabRecord[] {
  const kept = store.get<unknown>(LABS_KEY, []);
  if (!Array.isArray(kept)) return [];
  return kept
    .filter(
      (lab): lab is LabRecord =>
        typeof lab === 'object' &&
        lab !== null &&
        /^lab-[0-9a-f]{8}$/.test(String((lab as LabRecord).id)) &&
        typeof (lab as LabRecord).name === 'string' &&
        Array.isArray((lab as LabRecord).addresses) &&
        (lab as LabRecord).addresses.every((a) => typeof a === 'string') &&
        Array.isArray((lab as LabRecord).fingerprints) &&
        (lab as LabRecord).fingerprints.every((f) => typeof f === 'string'),
    )
    .map((lab, index) => ({
      id: lab.id,
      name: lab.name,
      addresses: [...lab.addresses],
      fingerprints: [...lab.fingerprints],
      order: typeof lab.order === 'number' ? lab.order : index,
    }))
    .sort((a, b) => a.order - b.order);
}

export function writeLabs(store: KeyValueStore, labs: readonly LabRecord[]): void {
  store.set(
    LABS_KEY,
    labs.map((lab, order) => ({ ...lab, order })),
  );
}

/** The lab's services with the fingerprint each is pinned by (one for all, or one each). */
export function labAddresses(lab: Pick<LabRecord, 'addresses' | 'fingerprints'>): ServiceAddress[] {
  return lab.addresses.map((url, index) => ({
    url,
    fingerprint: (lab.fingerprints.length === 1 ? lab.fingerprints[0] : lab.fingerprints[index]) || undefined,
  }));
}
