import { shell } from 'electron';
import type { Logger } from '../shared/logging';

/**
 * The only place Plugboard hands a URL to the operating system. `shell.openExternal` launches
 * whatever handler the OS has for a scheme — `file:` runs local programs, custom schemes start other
 * apps with attacker-chosen arguments — so a link from the page (a controller's name, a web page a
 * controller serves) could otherwise execute code. Only plain http(s) web addresses pass, and not
 * ones with embedded credentials, which are a phishing trick. ESLint bans `openExternal` elsewhere.
 */
export async function openExternalSafely(url: string, log: Logger): Promise<boolean> {
  const reason = unsafeReason(url);
  if (reason) {
    log(`Refused to open a link: ${reason}.`);
    return false;
  }
  try {
    await shell.openExternal(url);
    return true;
  } catch (error) {
    log('The system could not open a link', error);
    return false;
  }
}

export function unsafeReason(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'it is not a valid address';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    return `the scheme ${parsed.protocol} is not http or https`;
  if (parsed.username || parsed.password) return 'it carries a user name or password';
  return null;
}
