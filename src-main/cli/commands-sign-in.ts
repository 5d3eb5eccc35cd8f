/**
 * `plugboard sign-in` and `plugboard sign-out`: a person's session on a lab service (--service), kept in
 * the OS keychain only; what they do is in service-sign-in.ts, loaded when one runs.
 */
import type { Command } from 'commander';
import type { Runner } from './command-context';
import { leaf } from './global-options';

export function registerSignInCommands(program: Command, run: Runner): void {
  leaf(
    program
      .command('sign-in')
      .description(
        'sign in to the lab service (--service) as an account; the session is kept in the OS keychain',
      )
      .option('--account <name>', 'the account to sign in as (asked at a terminal when left out)')
      .option(
        '--password-stdin',
        "read the account's password from standard input (typed hidden at a terminal)",
      )
      .option(
        '--provider',
        "sign in through the lab's identity provider, in the system browser ($BROWSER, else the desktop's); the address is printed too",
      ),
    ['--password-stdin', '--password'],
  ).action(run(async (context) => (await import('./service-sign-in')).signIn(context)));

  leaf(
    program
      .command('sign-out')
      .description('end the session kept for the lab service (--service) and delete it from the OS keychain'),
  ).action(run(async (context) => (await import('./service-sign-in')).signOut(context)));
}
