import type { LabEvent } from '../../src-preload/model';
import type { Backend } from './backend';

/**
 * A lab's Core as the window sees it: the same `Backend` shape as this computer's, each call made on
 * the lab through this computer's `labs/call` (the lab's own answer comes back, its refusals in its
 * words) and each event heard as `labs/event` for this lab and that name.
 *
 * Built from the names the window asks for, not from the contract's list: the renderer takes the
 * contract's types only (its call list would bring every valibot schema into the page), and the desk
 * checks the call's name as it checks every other input.
 */
export function labBackend(local: Backend, lab: string): Backend {
  const domains = new Map<string, object>();
  const domainOf = (domain: string): object => {
    let made = domains.get(domain);
    if (!made) {
      made = new Proxy(Object.freeze({}), {
        get: (_target, action) =>
          typeof action === 'string'
            ? (input: unknown) => local.labs.call({ lab, name: `${domain}/${action}`, input })
            : undefined,
      });
      domains.set(domain, made);
    }
    return made;
  };
  const on = (name: string, listener: (payload: unknown) => void): (() => void) =>
    local.on('labs/event', (event: LabEvent) => {
      if (event.lab === lab && event.name === name) listener(event.payload);
    });
  return new Proxy(Object.freeze({}), {
    get: (_target, key) => {
      if (key === 'on') return on;
      // Not a thenable: an awaited backend must not look like a promise.
      if (typeof key !== 'string' || key === 'then') return undefined;
      return domainOf(key);
    },
  }) as Backend;
}
