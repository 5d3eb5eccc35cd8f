/** Firmware versions are dotted integers (`1.12.14.0`); missing parts count as zero. */
export function compareFirmware(a: string, b: string): number {
  const pa = a.split('.').map((part) => Number.parseInt(part, 10) || 0);
  const pb = b.split('.').map((part) => Number.parseInt(part, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff < 0 ? -1 : 1;
  }
  return 0;
}

export const FIRMWARE_PATTERN = /^\d{1,4}(\.\d{1,4}){1,3}$/;

/** What a firmware version can do, by the gates the reference documents. */
export interface FirmwareFeatures {
  /** ≥ 1.10: OAuth-style clients with Bearer access tokens (`auth/clients/`). */
  tokens: boolean;
  /** ≥ 1.10.11: `relay/set_outlet_transient_states/`. */
  simultaneousSwitching: boolean;
  /** ≥ 1.11.6.0: `system/reboot/`. */
  reboot: boolean;
}

export function firmwareFeatures(version: string): FirmwareFeatures {
  return {
    tokens: compareFirmware(version, '1.10') >= 0,
    simultaneousSwitching: compareFirmware(version, '1.10.11') >= 0,
    reboot: compareFirmware(version, '1.11.6.0') >= 0,
  };
}
