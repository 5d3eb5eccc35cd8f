/**
 * A real OpenID provider for tests (the `oidc-provider` package, not a mock) on 127.0.0.1, with its
 * quick-start login and consent pages (any password; the login is the account), test people with a
 * `groups` claim (in the `groups` scope, and given by userinfo as a real provider's code flow does), and
 * one confidential client whose redirect URI is set once the service's port is known (`register`).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export const CLIENT_ID = 'plugboard-lab';
export const CLIENT_SECRET = 'test-client-secret-0123456789abcdef';

/** A person at the provider: the subject is the login typed on its page. */
export interface TestPerson {
  preferred_username?: string;
  email?: string;
  name?: string;
  groups?: string[];
}

export interface TestProvider {
  /** `http://127.0.0.1:PORT` */
  issuer: string;
  /** The people, by login (their subject); change one to change what the provider says next time. */
  people: Map<string, TestPerson>;
  /** Accept sign-ins for `redirectUri` (the service's /api/v1/oidc/callback). */
  register(redirectUri: string): void;
  close(): Promise<void>;
}

export async function startTestProvider(people: Record<string, TestPerson>): Promise<TestProvider> {
  let handle: ((request: IncomingMessage, response: ServerResponse) => void) | null = null;
  const server: Server = createServer((request, response) => {
    if (handle) return handle(request, response);
    response.writeHead(503).end('not registered yet');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const known = new Map(Object.entries(people));
  return {
    issuer,
    people: known,
    register(redirectUri) {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: CLIENT_ID,
            client_secret: CLIENT_SECRET,
            redirect_uris: [redirectUri],
            grant_types: ['authorization_code'],
            response_types: ['code'],
            token_endpoint_auth_method: 'client_secret_basic',
          },
        ],
        claims: {
          openid: ['sub'],
          profile: ['name', 'preferred_username'],
          email: ['email'],
          groups: ['groups'],
        },
        scopes: ['openid', 'profile', 'email', 'groups'],
        cookies: { keys: ['plugboard-test-cookie-key'] },
        // Lifetimes given, so the provider does not remark on each default it falls back to.
        ttl: {
          AccessToken: 600,
          AuthorizationCode: 60,
          Grant: 600,
          IdToken: 600,
          Interaction: 600,
          Session: 600,
        },
        features: { devInteractions: { enabled: true } },
        findAccount: async (_context, id) => {
          const person = known.get(id);
          if (!person) return undefined;
          return { accountId: id, claims: () => ({ sub: id, ...known.get(id) }) };
        },
      });
      handle = provider.callback();
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
