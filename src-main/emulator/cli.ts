import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { FIRMWARE_PATTERN } from './firmware';
import { addRealUnitOptions } from './cli-real-unit';
import { type EmulatorOptions, randomSerial, resolveOptions } from './options';

function number(min: number, max: number, integer: boolean, what: string) {
  return (text: string): number => {
    const value = Number(text);
    if (
      text.trim() === '' ||
      !Number.isFinite(value) ||
      value < min ||
      value > max ||
      (integer && !Number.isInteger(value))
    ) {
      throw new InvalidArgumentError(
        `Expected ${integer ? 'a whole number' : 'a number'} of ${what} from ${min} to ${max}.`,
      );
    }
    return value;
  };
}

function pattern(regex: RegExp, expected: string) {
  return (text: string): string => {
    if (!regex.test(text)) throw new InvalidArgumentError(`Expected ${expected}.`);
    return text;
  };
}

/** The n-th serial of a run: the trailing digits count up (LPC9000001, LPC9000002, …). */
export function nthSerial(base: string, n: number): string {
  if (n === 0) return base;
  const match = /^(.*?)(\d+)$/.exec(base);
  if (!match) return `${base}-${n + 1}`;
  const digits = match[2] ?? '0';
  const next = String(BigInt(digits) + BigInt(n)).padStart(digits.length, '0');
  return `${match[1] ?? ''}${next}`;
}

export function buildProgram(): Command {
  const program = new Command('emulator')
    .description(
      'A software Digital Loggers Web Power Switch: a real HTTP(S) server with digest auth under /restapi/.',
    )
    .option(
      '--port <port>',
      'port of the first controller (0: any free port)',
      number(0, 65535, true, 'port'),
      8080,
    )
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option(
      '--count <n>',
      'controllers to start, on consecutive ports',
      number(1, 100, true, 'controllers'),
      1,
    )
    .option(
      '--user <name>',
      'admin user name',
      pattern(/^[\x21-\x7e]{1,32}$/, '1–32 printable characters without spaces'),
      'admin',
    )
    .option(
      '--password <password>',
      'admin password',
      pattern(/^[\x20-\x7e]{1,64}$/, '1–64 printable ASCII characters'),
      '1234',
    )
    .option('--outlets <n>', 'outlets per controller', number(1, 64, true, 'outlets'), 8)
    .option(
      '--firmware <version>',
      'firmware version (gates features)',
      pattern(FIRMWARE_PATTERN, 'dotted numbers such as 1.12.14.0'),
      '1.12.14.0',
    )
    .option(
      '--serial <serial>',
      'serial of the first controller (default: random LPC9…)',
      pattern(/^[A-Za-z0-9-]{1,32}$/, '1–32 letters, digits or -'),
    )
    .option('--model <model>', 'model', pattern(/^[\x20-\x7e]{1,32}$/, '1–32 printable characters'), 'LPC9')
    .option(
      '--name <name>',
      'controller name (numbered with --count)',
      pattern(/^[\x20-\x7e]{1,60}$/, '1–60 printable characters'),
      'DLI Controller',
    )
    .option('--no-meters', 'a controller without meters')
    .option('--cycle-delay <seconds>', 'default cycle off-time', number(0, 3600, false, 'seconds'), 3)
    .option(
      '--sequence-delay <seconds>',
      'delay between outlets switched on together',
      number(0, 60, false, 'seconds'),
      0.5,
    )
    .option(
      '--reboot-seconds <seconds>',
      'how long a reboot keeps the controller down',
      number(0, 600, false, 'seconds'),
      5,
    )
    .option('--latency <ms>', 'delay added before every answer', number(0, 60_000, false, 'milliseconds'), 0)
    .option(
      '--slow-outlet-list-ms <ms>',
      'delay added to the answer of GET relay/outlets/, the full list (real units: about 5000; default 0, --real-unit 5000)',
      number(0, 60_000, false, 'milliseconds'),
    )
    .option(
      '--slow-outlets-ms <ms>',
      'delay added to every answer under relay/outlets/, writes included, after the change is made: a unit slow everywhere (default 0)',
      number(0, 60_000, false, 'milliseconds'),
    )
    .addOption(
      new Option('--nonce-lifetime <seconds>', 'how long a digest nonce stays valid')
        .argParser(number(1, 86_400, false, 'seconds'))
        .default(300),
    )
    .option('--tls', 'HTTPS with a self-signed certificate generated at start')
    .option('--qop', 'offer qop="auth" in the digest challenge instead of the RFC 2069 form')
    .option('--mdns', 'advertise each controller over mDNS')
    .option(
      '--mqtt-broker <url>',
      "the unit's own MQTT client: publish outlet changes to this broker (mqtt://host:port)",
    )
    .option(
      '--mqtt-topic <root>',
      'topic root the unit publishes under (<root>/outlets/<index>, 1 or 0); with --count, /1, /2… is added',
      'dli',
    )
    .option(
      '--mqtt-allow-write',
      'the unit\'s MQTT "Allow write": obey <root>/outlets/<index>/set from anyone',
    );
  return addRealUnitOptions(program).allowExcessArguments(false);
}

interface CliValues {
  port: number;
  host: string;
  count: number;
  user: string;
  password: string;
  outlets: number;
  firmware: string;
  serial?: string;
  model: string;
  name: string;
  meters: boolean;
  cycleDelay: number;
  sequenceDelay: number;
  rebootSeconds: number;
  latency: number;
  slowOutletListMs?: number;
  slowOutletsMs?: number;
  nonceLifetime: number;
  realUnit?: boolean;
  connectionClose?: EmulatorOptions['connectionClose'];
  depthRefs?: EmulatorOptions['depthRefs'];
  meterMap?: EmulatorOptions['meterMap'];
  tokenScopes?: EmulatorOptions['tokenScopes'];
  matrixErrors?: EmulatorOptions['matrixErrors'];
  formScriptStart?: boolean;
  cycleTransient?: EmulatorOptions['cycleTransient'];
  externalApiGrant?: boolean;
  ungrantedStatus?: EmulatorOptions['ungrantedStatus'];
  autoping?: boolean;
  autopingAnswers?: string[];
  tlsResumption: boolean;
  tls?: boolean;
  qop?: boolean;
  mdns?: boolean;
  mqttBroker?: string;
  mqttTopic: string;
  mqttAllowWrite?: boolean;
}

/** Leaves out options not given, so `--real-unit` fills them in. */
function definedOnly(values: Partial<EmulatorOptions>): Partial<EmulatorOptions> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}

export type CliResult =
  { ok: true; controllers: EmulatorOptions[] } | { ok: false; exitCode: number; output: string };

/** Parses the command line into one options object per controller; never exits the process. */
export function parseCli(args: string[]): CliResult {
  let output = '';
  const program = buildProgram()
    .exitOverride()
    .configureOutput({ writeOut: (text) => (output += text), writeErr: (text) => (output += text) });
  try {
    program.parse(args, { from: 'user' });
  } catch (error) {
    if (error instanceof CommanderError) {
      const help = error.code === 'commander.helpDisplayed' || error.code === 'commander.version';
      return { ok: false, exitCode: help ? 0 : 2, output };
    }
    throw error;
  }
  const values = program.opts<CliValues>();
  if (values.port !== 0 && values.port + values.count - 1 > 65535) {
    return {
      ok: false,
      exitCode: 2,
      output: `error: --port ${values.port} with --count ${values.count} runs past port 65535\n`,
    };
  }
  const baseSerial = values.serial ?? randomSerial();
  const controllers = Array.from({ length: values.count }, (_, i): EmulatorOptions => ({
    port: values.port === 0 ? 0 : values.port + i,
    host: values.host,
    user: values.user,
    password: values.password,
    outlets: values.outlets,
    firmware: values.firmware,
    serial: nthSerial(baseSerial, i),
    model: values.model,
    name: values.count === 1 ? values.name : `${values.name} ${i + 1}`,
    meters: values.meters,
    cycleDelay: values.cycleDelay,
    sequenceDelay: values.sequenceDelay,
    rebootSeconds: values.rebootSeconds,
    latency: values.latency,
    nonceLifetime: values.nonceLifetime,
    tlsResumption: values.tlsResumption,
    ...definedOnly({
      slowOutletListMs: values.slowOutletListMs,
      slowOutletsMs: values.slowOutletsMs,
      realUnit: values.realUnit,
      connectionClose: values.connectionClose,
      depthRefs: values.depthRefs,
      meterMap: values.meterMap,
      tokenScopes: values.tokenScopes,
      matrixErrors: values.matrixErrors,
      formScriptStart: values.formScriptStart,
      cycleTransient: values.cycleTransient,
      externalApiGrant: values.externalApiGrant,
      ungrantedStatus: values.ungrantedStatus,
      autoping: values.autoping,
      autopingAnswering: values.autopingAnswers,
    }),
    tls: values.tls === true,
    qop: values.qop === true,
    mdns: values.mdns === true,
    ...(values.mqttBroker
      ? {
          mqtt: {
            broker: values.mqttBroker,
            topic: values.count === 1 ? values.mqttTopic : `${values.mqttTopic.replace(/\/+$/, '')}/${i + 1}`,
            allowWrite: values.mqttAllowWrite === true,
          },
        }
      : {}),
  }));
  try {
    controllers.forEach((options) => resolveOptions(options));
  } catch (error) {
    return { ok: false, exitCode: 2, output: `error: ${(error as Error).message}\n` };
  }
  return { ok: true, controllers };
}
