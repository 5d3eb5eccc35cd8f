import { type Command, InvalidArgumentError, Option } from 'commander';
import {
  CONNECTION_CLOSE,
  CYCLE_TRANSIENT,
  DEPTH_REFS,
  MATRIX_ERRORS,
  METER_MAPS,
  TOKEN_SCOPES,
  UNGRANTED_STATUS,
  type UngrantedStatus,
} from './options';

/** The real-unit profile's options (see README.md in this folder). */
export function addRealUnitOptions(program: Command): Command {
  return program
    .option(
      '--real-unit',
      'every behaviour of a real unit below at once (an option given explicitly still wins)',
    )
    .addOption(
      new Option(
        '--connection-close <mode>',
        'Connection: close on every answer, bodies close-delimited or chunked',
      ).choices(CONNECTION_CLOSE),
    )
    .addOption(
      new Option(
        '--depth-refs <form>',
        'depth-limited reads: relative = leaves as relative $ref, >100 headers',
      ).choices(DEPTH_REFS),
    )
    .addOption(
      new Option(
        '--meter-map <form>',
        'meter/values/: object-model = platform ids, every field, false for no reading',
      ).choices(METER_MAPS),
    )
    .addOption(
      new Option('--token-scopes <form>', 'token scopes: dli = get, modify and invoke separately').choices(
        TOKEN_SCOPES,
      ),
    )
    .addOption(
      new Option(
        '--matrix-errors <form>',
        'failed elements of a 207 answer with or without a status',
      ).choices(MATRIX_ERRORS),
    )
    .option('--form-script-start', 'accept script/start/ bodies sent as a form (curl without Content-Type)')
    .addOption(
      new Option('--cycle-transient <behaviour>', "a cycle's transient state during the off-time").choices(
        CYCLE_TRANSIENT,
      ),
    )
    .option(
      '--external-api-grant',
      'non-admin users need the External APIs grant and may only toggle outlets',
    )
    .addOption(
      new Option(
        '--ungranted-status <status>',
        'what a non-admin user without the grant gets: 401, 403 or 404',
      ).argParser((text) => {
        const status = Number(text);
        if (!(UNGRANTED_STATUS as readonly number[]).includes(status))
          throw new InvalidArgumentError('Expected 401, 403 or 404.');
        return status as UngrantedStatus;
      }),
    )
    .option('--no-tls-resumption', 'HTTPS: every connection a full handshake (no session resumption)')
    .option('--autoping', 'the autoping/ subtree, simulated (no ICMP)')
    .option(
      '--autoping-answers <addresses>',
      'comma-separated addresses that answer AutoPing (others do not)',
      (text: string) =>
        text
          .split(',')
          .map((address) => address.trim())
          .filter(Boolean),
    );
}
