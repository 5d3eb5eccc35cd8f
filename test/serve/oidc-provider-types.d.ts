/**
 * The little of oidc-provider (a dev dependency without types of its own) that the test provider
 * (oidc-provider.ts) uses.
 */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface ProviderAccount {
    accountId: string;
    claims(use: string, scope: string): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  interface ProviderConfiguration {
    clients?: Record<string, unknown>[];
    findAccount?: (context: unknown, id: string) => Promise<ProviderAccount | undefined>;
    claims?: Record<string, string[]>;
    features?: Record<string, { enabled: boolean }>;
    cookies?: { keys: string[] };
    pkce?: { required: () => boolean };
    ttl?: Record<string, number>;
    [key: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: ProviderConfiguration);
    callback(): (request: IncomingMessage, response: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
