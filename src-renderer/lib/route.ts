/**
 * The current page in the window's address, so a reload lands where the person was and back/forward
 * move between places: `#/<core>/<page>` for the pages and `#/<core>/<controller id>/<section>` for a
 * controller. The first part names the Core the page belongs to: `local` is the one this window talks to
 * (this computer's, or the lab's it was opened from), a lab's id (`lab-1a2b3c4d`) one of the labs this
 * computer attaches to.
 */

/** The Core a window talks to directly. */
export const LOCAL_CORE = 'local';

/** Pages that are not a controller. */
export const PAGES = ['overview', 'inventory', 'add', 'settings', 'people', 'connect'] as const;
export type Page = (typeof PAGES)[number];

export interface Place {
  core: string;
  /** A page, or a controller's id. */
  view: string;
  /** The controller's section (outlets, meters…); null on a page or for the one it showed last. */
  section: string | null;
}

const SEGMENT = /^\w[\w.-]{0,63}$/;

export function isPage(view: string): view is Page {
  return (PAGES as readonly string[]).includes(view);
}

/** The place an address names; the Overview for anything else (an empty or hand-mangled address). */
export function parsePlace(hash: string): Place {
  const parts = hash
    .replace(/^#?\/?/, '')
    .split('/')
    .filter(Boolean)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return '';
      }
    });
  const [core, view, section] = parts;
  if (!core || !view || !SEGMENT.test(core) || !SEGMENT.test(view))
    return { core: LOCAL_CORE, view: 'overview', section: null };
  return {
    core,
    view,
    section: !isPage(view) && section && SEGMENT.test(section) ? section : null,
  };
}

/** The address of a place: `#/local/overview`, `#/local/c1a2b3c4/meters`. */
export function placeHash(place: Place): string {
  const parts = [place.core, place.view, ...(isPage(place.view) || !place.section ? [] : [place.section])];
  return `#/${parts.map(encodeURIComponent).join('/')}`;
}
