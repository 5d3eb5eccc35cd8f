/**
 * How Plugboard logs in to a controller: the REST client sends them, the Core and the CLI build them from
 * a saved controller and its keychain secret. Basic is sent only when chosen explicitly (it needs
 * plaintext logins allowed).
 */
export type Credentials =
  | { kind: 'digest'; user: string; password: string }
  | { kind: 'basic'; user: string; password: string }
  /** An access token `<client_id>.<secret>` (firmware ≥ 1.10), sent as `Authorization: Bearer …`. */
  | { kind: 'token'; token: string };
