/** The contract's settings calls. */
import type { Handlers } from '../../../src-preload/contract';
import type { CoreContext } from '../flows/core-context';

type SettingsHandlers = Pick<Handlers, 'settings/get' | 'settings/set'>;

export function settingsHandlers(ctx: CoreContext): SettingsHandlers {
  return {
    'settings/get': async () => ctx.settings.get(),
    'settings/set': async (input) => ctx.settings.update(input),
  };
}
