/** The AutoPing item form's draft and its rules; outlets are 1-based. */
import type { AutopingItem, AutopingItemInput } from '../../src-preload/model';

export interface AutopingDraft {
  /** Addresses as typed: separated by commas or spaces. */
  addresses: string;
  /** Index i = outlet i + 1. */
  outlets: boolean[];
  enabled: boolean;
  /** '' = the controller's global setting. */
  pings: string;
  resumptionTrial: boolean;
  script: string;
}

export type AutopingField = 'addresses' | 'outlets' | 'pings' | 'script';

const ADDRESS = /^[A-Za-z0-9][A-Za-z0-9.:-]{0,252}$/;

export function autopingDraft(outletCount: number, item?: AutopingItem): AutopingDraft {
  return {
    addresses: item ? item.addresses.join(', ') : '',
    outlets: Array.from({ length: outletCount }, (_, i) => item?.outlets.includes(i + 1) ?? false),
    enabled: item?.enabled ?? true,
    pings: item?.pingsBeforeEnabling == null ? '' : String(item.pingsBeforeEnabling),
    resumptionTrial: item?.resumptionTrial ?? false,
    script: item?.script ?? '',
  };
}

function addressList(text: string): string[] {
  return text.split(/[\s,]+/).filter(Boolean);
}

/** What is wrong with each field, in words a person can act on; empty when the draft can be saved. */
export function validateAutoping(draft: AutopingDraft): Partial<Record<AutopingField, string>> {
  const errors: Partial<Record<AutopingField, string>> = {};
  const addresses = addressList(draft.addresses);
  const bad = addresses.find((a) => !ADDRESS.test(a));
  if (addresses.length === 0) errors.addresses = 'Enter at least one address to ping.';
  else if (addresses.length > 8) errors.addresses = 'At most 8 addresses.';
  else if (bad !== undefined) errors.addresses = `“${bad.slice(0, 40)}” is not a host name or IP address.`;
  if (!draft.outlets.some(Boolean) && draft.script.trim() === '')
    errors.outlets = 'Choose the outlets to power-cycle, or a script to run instead.';
  if (draft.pings.trim() !== '' && !/^\d{1,4}$/.test(draft.pings.trim()))
    errors.pings = 'A whole number, or empty for the controller’s own setting.';
  else if (Number(draft.pings) > 1000) errors.pings = 'At most 1000.';
  if (draft.script.trim() !== '' && !/^[A-Za-z_][A-Za-z0-9_]{0,63}$/.test(draft.script.trim()))
    errors.script = 'A script is the name of a user function, e.g. reset_modem.';
  return errors;
}

export function autopingInput(draft: AutopingDraft): AutopingItemInput {
  return {
    addresses: addressList(draft.addresses),
    outlets: draft.outlets.flatMap((on, i) => (on ? [i + 1] : [])),
    enabled: draft.enabled,
    pingsBeforeEnabling: draft.pings.trim() === '' ? null : Number(draft.pings),
    resumptionTrial: draft.resumptionTrial,
    script: draft.script.trim(),
  };
}

/** The status word for a person. */
export function autopingStatusText(status: string): string {
  const words: Record<string, string> = {
    disabled: 'Disabled',
    waiting: 'Waiting for answers',
    ok: 'Answering',
    failing: 'Not answering',
    rebooting: 'Power-cycled, waiting',
    halted: 'Stopped after too many power cycles',
  };
  return words[status] ?? status;
}

/** The editable fields of a listed item (the contract takes exactly these: no number, no status). */
export function inputOf(item: AutopingItem): AutopingItemInput {
  const { addresses, outlets, enabled, pingsBeforeEnabling, resumptionTrial, script } = item;
  return { addresses, outlets, enabled, pingsBeforeEnabling, resumptionTrial, script };
}
