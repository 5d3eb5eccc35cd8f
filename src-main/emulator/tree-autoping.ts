import type { Autoping, AutopingItem, AutopingItemFields, AutopingSettings } from './autoping';
import type { Controller } from './controller';
import { badRequest, notFound } from './http-error';
import {
  array,
  boolField,
  type Call,
  type Container,
  object,
  parseBoolean,
  parseNumber,
  readOnly,
  writable,
} from './tree';

const ITEM_FIELDS = [
  'addresses',
  'outlets',
  'enabled',
  'pings_before_enabling',
  'script',
  'resumption_trial',
] as const;
const ADDRESS = /^[A-Za-z0-9]([A-Za-z0-9.:-]{0,252})$/;

function parseAddresses(value: unknown): string[] {
  const list = typeof value === 'string' ? [value] : value;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.length > 8 ||
    list.some((address) => typeof address !== 'string' || !ADDRESS.test(address))
  ) {
    throw badRequest(
      'addresses is a list of 1 to 8 host names or IP addresses, e.g. ["192.168.0.1"].',
      'bad_value',
    );
  }
  return [...(list as string[])];
}

function parseOutlets(value: unknown, count: number): number[] {
  const list = typeof value === 'number' ? [value] : value;
  if (
    !Array.isArray(list) ||
    list.some(
      (index) => typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= count,
    ) ||
    new Set(list).size !== list.length
  ) {
    throw badRequest(
      `outlets is a list of distinct outlet indices from 0 to ${count - 1} (0 = outlet 1).`,
      'bad_value',
    );
  }
  return [...(list as number[])];
}

function parsePings(value: unknown): number | null {
  if (value === null) return null;
  const pings = parseNumber(value, 'pings_before_enabling', 0, 1000);
  if (!Number.isInteger(pings))
    throw badRequest('pings_before_enabling must be a whole number.', 'bad_value');
  return pings;
}

function parseScript(value: unknown): string {
  if (typeof value !== 'string' || value.length > 64)
    throw badRequest('script is the name of a user function (at most 64 characters), or "".', 'bad_value');
  return value;
}

/**
 * A whole item from a POST or PUT body: `addresses` is required on creation, the rest default; on
 * replace, missing fields keep their values. `status` is read-only and ignored when it is unchanged.
 */
function parseItem(value: unknown, count: number, current?: AutopingItem): AutopingItemFields {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw badRequest('An AutoPing item is a JSON object with addresses and outlets.', 'bad_body');
  const fields = value as Record<string, unknown>;
  const unknown = Object.keys(fields).filter(
    (key) => !(ITEM_FIELDS as readonly string[]).includes(key) && key !== 'status',
  );
  if (unknown.length > 0) throw badRequest(`Unknown AutoPing item field: ${unknown.join(', ')}.`, 'bad_body');
  if ('status' in fields && fields.status !== current?.status)
    throw badRequest('status is read-only.', 'read_only');
  if (!current && !('addresses' in fields))
    throw badRequest('A new AutoPing item needs addresses.', 'bad_body');
  const has = (key: string): boolean => key in fields;
  return {
    addresses: has('addresses') ? parseAddresses(fields.addresses) : (current?.addresses ?? []),
    outlets: has('outlets') ? parseOutlets(fields.outlets, count) : (current?.outlets ?? []),
    enabled: has('enabled') ? parseBoolean(fields.enabled, 'enabled') : (current?.enabled ?? false),
    pings_before_enabling: has('pings_before_enabling')
      ? parsePings(fields.pings_before_enabling)
      : (current?.pings_before_enabling ?? null),
    script: has('script') ? parseScript(fields.script) : (current?.script ?? ''),
    resumption_trial: has('resumption_trial')
      ? parseBoolean(fields.resumption_trial, 'resumption_trial')
      : (current?.resumption_trial ?? false),
  };
}

function itemNode(c: Controller, autoping: Autoping, item: AutopingItem): Container {
  const count = c.relay.count;
  const field = <K extends keyof AutopingItemFields>(
    key: K,
    parse: (value: unknown) => AutopingItemFields[K],
  ) =>
    writable(
      () => item[key],
      (value) => {
        const parsed = parse(value);
        return () => autoping.replace(item, { ...fieldsOf(item), [key]: parsed });
      },
    );
  return object(
    () => ({
      addresses: field('addresses', parseAddresses),
      outlets: field('outlets', (value) => parseOutlets(value, count)),
      enabled: field('enabled', (value) => parseBoolean(value, 'enabled')),
      pings_before_enabling: field('pings_before_enabling', parsePings),
      script: field('script', parseScript),
      resumption_trial: field('resumption_trial', (value) => parseBoolean(value, 'resumption_trial')),
      status: readOnly(() => item.status),
    }),
    {
      patch: (fields) => {
        const next = parseItem(fields, count, item);
        return () => autoping.replace(item, next);
      },
    },
  );
}

function fieldsOf(item: AutopingItem): AutopingItemFields {
  return Object.fromEntries(ITEM_FIELDS.map((key) => [key, item[key]])) as unknown as AutopingItemFields;
}

function setting(autoping: Autoping, key: keyof AutopingSettings, min: number, max: number) {
  const current = autoping.settings[key];
  if (typeof current === 'boolean') {
    return boolField(
      () => autoping.settings[key] as boolean,
      (on) => {
        (autoping.settings[key] as boolean) = on;
        autoping.changed();
      },
      key,
    );
  }
  return writable(
    () => autoping.settings[key],
    (value) => {
      const number = parseNumber(value, key, min, max);
      return () => {
        (autoping.settings[key] as number) = number;
        autoping.changed();
      };
    },
  );
}

/** `autoping/`: global settings, `items[]` (POST to create, PUT/PATCH to edit, DELETE to remove). */
export function autopingNode(c: Controller, autoping: Autoping): Container {
  const resetStatistics: Call = {
    kind: 'call',
    invoke: () => {
      autoping.resetStatistics();
      return { status: 204 };
    },
  };
  return object(() => ({
    enabled: setting(autoping, 'enabled', 0, 1),
    ping_interval: setting(autoping, 'ping_interval', 1, 3600),
    ping_timeout: setting(autoping, 'ping_timeout', 1, 60),
    post_reboot_delay: setting(autoping, 'post_reboot_delay', 0, 3600),
    max_reboot_count: setting(autoping, 'max_reboot_count', 0, 1000),
    max_consecutive_reboot_count: setting(autoping, 'max_consecutive_reboot_count', 0, 1000),
    pings_before_enabling: setting(autoping, 'pings_before_enabling', 0, 1000),
    resume_without_retrial: setting(autoping, 'resume_without_retrial', 0, 1),
    handle_failures_immediately: setting(autoping, 'handle_failures_immediately', 0, 1),
    items: array(() => autoping.items.map((item) => itemNode(c, autoping, item)), {
      append: (value) => {
        const fields = parseItem(value, c.relay.count);
        return { key: String(autoping.items.length), apply: () => void autoping.add(fields) };
      },
      removeChild: (key) => {
        const index = Number(key);
        if (!autoping.items[index]) throw notFound(`There is no AutoPing item ${key}.`);
        return () => autoping.remove(index);
      },
    }),
    reset_statistics: resetStatistics,
  }));
}
