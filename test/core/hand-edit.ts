/** config.json changed outside Plugboard, and the logins a listener saw: for the secret-binding tests. */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Change config.json as a person with an editor (or a writer that skips Plugboard's checks) would. */
export function editByHand(dir: string, change: (controller: Record<string, unknown>) => void): void {
  const file = path.join(dir, 'config.json');
  const config = JSON.parse(readFileSync(file, 'utf8')) as { controllers: Record<string, unknown>[] };
  change(config.controllers[0]!);
  writeFileSync(file, JSON.stringify(config, null, 2));
}

/** An Authorization header that is a digest login as `user`. */
export const digestAs = (user: string) => (authorization: string) =>
  authorization.startsWith('Digest ') && authorization.includes(`username="${user}"`);
