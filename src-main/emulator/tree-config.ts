import { callerName, canSwitch, isAdmin } from './access';
import type { Controller } from './controller';
import { badRequest } from './http-error';
import { boolField, type Container, object, readOnly, writable } from './tree';

const HOSTNAME = /^(?=.{1,63}$)[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/;

export function configNode(c: Controller): Container {
  const { config } = c;
  return object(() => ({
    serial: readOnly(() => config.serial),
    version: readOnly(() => config.firmware),
    hostname: writable(
      () => config.hostname,
      (value) => {
        if (typeof value !== 'string' || !HOSTNAME.test(value)) {
          throw badRequest('hostname must be 1–63 letters, digits or - (not at either end).', 'bad_value');
        }
        return () => (config.hostname = value);
      },
    ),
    brand_name: readOnly(() => config.brandName),
    brand_company_name: readOnly(() => config.brandCompanyName),
    ssh_enabled: boolField(
      () => config.sshEnabled,
      (on) => (config.sshEnabled = on),
      'ssh_enabled',
    ),
    allow_plaintext_logins: boolField(
      () => config.allowPlaintextLogins,
      (on) => (config.allowPlaintextLogins = on),
      'allow_plaintext_logins',
    ),
  }));
}

/** `cred/`: who the caller is, as the controller sees them. */
export function credNode(c: Controller): Container {
  return object((ctx) => {
    const { caller } = ctx;
    const name = callerName(ctx);
    return {
      ip_address: readOnly(() => caller.ip),
      is_admin: readOnly(() => isAdmin(ctx)),
      name: readOnly(() => name),
      agent: readOnly(() => (caller.kind === 'user' ? 'rest api' : 'access token')),
      outlet_access: readOnly(() => c.relay.outlets.map((_, i) => canSwitch(ctx, i))),
    };
  });
}
