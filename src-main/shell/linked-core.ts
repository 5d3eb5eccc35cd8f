/**
 * The desktop app over a running `plugboard serve` (src-main/link): the window's and the tray's calls
 * go to the service's Core as this OS user through their own doors, and its events come back, so the
 * app keeps no Core of its own while a service runs (one Core per machine). What the Core would do for
 * its own window alone — asking the window to confirm a tray action on a critical outlet — stays here.
 */
import type { ConfirmRequest, EventSink } from '../../src-preload/contract';
import type { ActivityDoor } from '../../src-preload/model';
import type { Core } from '../core/index';
import type { CoreLink } from '../link';

/** What the Electron shell uses of a Core: its own, or a running service's through the link. */
export type ShellCore = Pick<
  Core,
  'handlers' | 'handlersAs' | 'subscribe' | 'setVisible' | 'requestConfirmation' | 'dispose'
>;

export function coreOverLink(link: CoreLink, user: string): ShellCore {
  const local = new Set<EventSink>();
  const handlersAs: ShellCore['handlersAs'] = (actor) => {
    const resolved = typeof actor === 'string' ? { door: actor, who: user } : actor;
    return link.handlersAs({ door: linkDoor(resolved.door), who: resolved.who });
  };
  return {
    handlers: handlersAs('window'),
    handlersAs,
    subscribe(sink) {
      local.add(sink);
      const stop = link.subscribe(sink);
      return () => {
        local.delete(sink);
        stop();
      };
    },
    // The service polls whether or not this window shows (its API and metrics want fresh readings).
    setVisible: () => undefined,
    requestConfirmation(request: ConfirmRequest) {
      for (const sink of local) sink('ui/confirm', request);
    },
    dispose: () => link.close(),
  };
}

/** The app speaks for its window and its tray only. */
function linkDoor(door: ActivityDoor): 'window' | 'tray' {
  return door === 'tray' ? 'tray' : 'window';
}
