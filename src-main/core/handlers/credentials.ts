/** The contract's credential calls (issue 16): the "password needed" prompt and where a secret lives. */
import type { Handlers } from '../../../src-preload/contract';
import type { CoreContext } from '../flows/core-context';
import { providePassword, secretWhere } from '../flows/credentials-provide';

type CredentialHandlers = Pick<Handlers, 'controllers/providePassword' | 'controllers/secretWhere'>;

export function credentialHandlers(ctx: CoreContext): CredentialHandlers {
  return {
    'controllers/providePassword': (input) => providePassword(ctx, input),
    'controllers/secretWhere': ({ controllerId }) => secretWhere(ctx, controllerId),
  };
}
