/** How Plugboard names an outlet in its sentences (activity log, errors, notifications). */

/** "outlet 3 (Scope)", or "outlet 3" when the name is the default. */
export function outletLabel(number: number, name: string | undefined): string {
  const clean = name?.trim();
  return !clean || clean.toLowerCase() === `outlet ${number}`
    ? `outlet ${number}`
    : `outlet ${number} (${clean})`;
}

/** The first letter upper-case: an outlet label that starts a sentence ("Outlet 3 (Scope) on …"). */
export function capitalise(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}
