/**
 * The lab's services as the CLI was given them: `--service` repeated or a comma list (or
 * PLUGBOARD_SERVICE as a comma list), each with the certificate fingerprint to pin. Two or more
 * `plugboard serve` on one lab store: one leads, the others are standbys that answer reads and refuse
 * every change with STANDBY, naming the leader (service-follow.ts follows it).
 */
import { type ServiceAddress } from '../link/service-address';
import { UsageError } from './io';

export { originOf, type ServiceAddress } from '../link/service-address';

/**
 * The addresses in `urls` (a comma list: repeated options arrive joined) with their fingerprints:
 * none, one for every address (the services present one certificate: the operator's), or one per
 * address in the same order (each its own; an empty entry pins nothing for that address).
 */
export function serviceAddresses(urls: string, fingerprints: string | undefined): ServiceAddress[] {
  const list = urls.split(',').map((url) => url.trim());
  if (list.some((url) => url === ''))
    throw new UsageError(
      '--service (or PLUGBOARD_SERVICE) has an empty address: give each service as http[s]://host:port, separated by commas or with --service repeated.',
    );
  const pins = fingerprints === undefined || fingerprints.trim() === '' ? [] : fingerprints.split(',');
  if (pins.length > 1 && pins.length !== list.length)
    throw new UsageError(
      `--service names ${list.length} services but --service-fingerprint gives ${pins.length} fingerprints: give one for all of them (the services share one certificate) or one per address, in the same order.`,
    );
  return list.map((url, index) => {
    const pin = (pins.length === 1 ? pins[0] : pins[index])?.trim();
    return { url, fingerprint: pin ? pin : undefined };
  });
}
