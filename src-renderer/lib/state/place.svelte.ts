import { SvelteMap } from 'svelte/reactivity';
import { LOCAL_CORE, isPage, parsePlace, placeHash } from '../route';

/** The section each controller showed last (by Core and id), so coming back to it comes back to the same place. */
export const lastSection = new SvelteMap<string, string>();

/** The section a controller opens at when it has not shown one yet. */
export const FIRST_SECTION = 'outlets';

/** The key of a controller's last section: its Core and its id. */
export const sectionKey = (core: string | undefined, view: string) => `${core ?? LOCAL_CORE}/${view}`;

/**
 * Where the window is — a Core, and its page or a controller and its section — kept in the address
 * (route.ts): a change made here is a new history entry, back and forward (and an address typed by
 * hand) come back through `follow`. Without a `location` (a test's bare component) it is plain state.
 */
export class PlaceState {
  /** The Core whose page is shown: `local` (this computer) or a lab's id. */
  core = $state(LOCAL_CORE);
  /** 'overview', 'inventory', 'add', 'settings' or a controller id. */
  view = $state('overview');
  /** The next change of address replaces the current entry instead of adding one. */
  #replace = true;

  constructor() {
    if (typeof location !== 'undefined') this.#read(location.hash);
  }

  /** The address of where the window is now. */
  get hash(): string {
    const section = isPage(this.view)
      ? null
      : (lastSection.get(sectionKey(this.core, this.view)) ?? FIRST_SECTION);
    return placeHash({ core: this.core, view: this.view, section });
  }

  /**
   * Go to a page or controller, of the Core shown or of another; `replace` when the old place is gone
   * (a removed controller, a lab no longer attached).
   */
  go(view: string, { replace = false, core = this.core } = {}): void {
    if (replace) this.#replace = true;
    this.core = core;
    this.view = view;
  }

  /** Put the current place in the address (run in an effect: it follows `hash`). */
  write(): void {
    const hash = this.hash;
    if (typeof location === 'undefined' || location.hash === hash) return;
    if (this.#replace || location.hash === '') history.replaceState(history.state, '', hash);
    else history.pushState(null, '', hash);
    this.#replace = false;
  }

  /** The address changed under the window (back, forward, typed): go where it says. */
  follow(): void {
    this.#read(location.hash);
  }

  #read(hash: string): void {
    const place = parsePlace(hash);
    // A Core the window does not show (a lab removed since) is turned back by the window once it knows.
    if (place.section && !isPage(place.view))
      lastSection.set(sectionKey(place.core, place.view), place.section);
    this.core = place.core;
    this.view = place.view;
  }
}
