import { PlugboardError } from '../shared/errors';

/** Features that depend on the controller's firmware, and the first version that has each. */
export const FIRMWARE_GATES = {
  simultaneousSwitching: '1.10.11',
  reboot: '1.11.6.0',
  tokens: '1.10',
} as const;

export type GatedFeature = keyof typeof FIRMWARE_GATES;

const FEATURE_WORDS: Record<GatedFeature, string> = {
  simultaneousSwitching: 'Switching several outlets simultaneously',
  reboot: 'Rebooting through the REST-style API',
  tokens: 'Access tokens',
};

/** `1.12.14.0` → [1, 12, 14, 0]; null when the text is not a dotted version. */
export function parseFirmware(version: string): number[] | null {
  const match = /^\s*v?(\d+(?:\.\d+)*)/i.exec(version);
  if (!match?.[1]) return null;
  return match[1].split('.').map((part) => Number.parseInt(part, 10));
}

/** Compares dotted versions; missing parts count as 0 (1.10.11 == 1.10.11.0). */
export function compareFirmware(a: readonly number[], b: readonly number[]): number {
  for (let i = 0; i < Math.max(a.length, b.length); i++) {
    const diff = (a[i] ?? 0) - (b[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  return 0;
}

/**
 * Whether `firmware` has the feature. A version we cannot parse counts as capable: the controller
 * then decides, rather than Plugboard refusing something the unit may well do.
 */
export function supports(firmware: string, feature: GatedFeature): boolean {
  const have = parseFirmware(firmware);
  const need = parseFirmware(FIRMWARE_GATES[feature]);
  if (!have || !need) return true;
  return compareFirmware(have, need) >= 0;
}

/** Throws UNSUPPORTED_FIRMWARE (naming the version needed) unless the firmware has the feature. */
export function requireFeature(firmware: string, feature: GatedFeature, controller: string): void {
  if (supports(firmware, feature)) return;
  const needed = FIRMWARE_GATES[feature];
  throw new PlugboardError(
    'UNSUPPORTED_FIRMWARE',
    `${FEATURE_WORDS[feature]} needs firmware ${needed} or newer; ${controller} runs ${firmware}. Update the controller's firmware to use it.`,
    { requiredFirmware: needed, firmware, feature },
  );
}

export function firmwareCapabilities(firmware: string): {
  simultaneousSwitching: boolean;
  reboot: boolean;
  tokens: boolean;
} {
  return {
    simultaneousSwitching: supports(firmware, 'simultaneousSwitching'),
    reboot: supports(firmware, 'reboot'),
    tokens: supports(firmware, 'tokens'),
  };
}
