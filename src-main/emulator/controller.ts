import { Autoping } from './autoping';
import { firmwareFeatures, type FirmwareFeatures } from './firmware';
import { Meters } from './meters';
import { ObjectModelMeters } from './meters-object-model';
import type { ResolvedOptions } from './options';
import { Relay } from './relay';
import { Scripts } from './scripts';
import { Clients } from './tokens';
import { Users } from './users';

/** Settings of the controller itself (`config/…`, `relay/name`) and of its External APIs page. */
export interface ControllerConfig {
  name: string;
  serial: string;
  model: string;
  firmware: string;
  relayFirmware: string;
  hostname: string;
  brandName: string;
  brandCompanyName: string;
  sshEnabled: boolean;
  /** "Allow legacy plaintext login methods": HTTP Basic is accepted only when true. */
  allowPlaintextLogins: boolean;
  /** "Allow REST-style API": when false every `/restapi/` request answers 404. */
  restApiEnabled: boolean;
}

/** The real-unit behaviours this controller shows (all off in the fast default profile). */
export type Behaviours = Pick<
  ResolvedOptions,
  | 'realUnit'
  | 'connectionClose'
  | 'depthRefs'
  | 'meterMap'
  | 'tokenScopes'
  | 'matrixErrors'
  | 'formScriptStart'
  | 'cycleTransient'
  | 'externalApiGrant'
  | 'ungrantedStatus'
  | 'autoping'
>;

/** Everything a controller knows, independent of HTTP. */
export class Controller {
  readonly config: ControllerConfig;
  readonly features: FirmwareFeatures;
  readonly relay: Relay;
  readonly users: Users;
  readonly behaviours: Readonly<Behaviours>;
  readonly clients: Clients;
  /** null unless the autoping option is on. */
  readonly autoping: Autoping | null;
  readonly scripts: Scripts;
  /** null on controllers without meters. */
  readonly meters: Meters | null;
  /** The object-model view of the meters (meterMap 'object-model'), else null. */
  readonly objectMeters: ObjectModelMeters | null;

  constructor(options: ResolvedOptions) {
    this.config = {
      name: options.name,
      serial: options.serial,
      model: options.model,
      firmware: options.firmware,
      relayFirmware: '1.3.1',
      hostname: `${options.model.toLowerCase().replace(/[^a-z0-9-]/g, '')}-${options.serial.slice(-4).toLowerCase()}`,
      brandName: 'Web Power Switch',
      brandCompanyName: 'Digital Loggers, Inc.',
      sshEnabled: false,
      allowPlaintextLogins: false,
      restApiEnabled: true,
    };
    this.features = firmwareFeatures(options.firmware);
    this.behaviours = {
      realUnit: options.realUnit,
      connectionClose: options.connectionClose,
      depthRefs: options.depthRefs,
      meterMap: options.meterMap,
      tokenScopes: options.tokenScopes,
      matrixErrors: options.matrixErrors,
      formScriptStart: options.formScriptStart,
      cycleTransient: options.cycleTransient,
      externalApiGrant: options.externalApiGrant,
      ungrantedStatus: options.ungrantedStatus,
      autoping: options.autoping,
    };
    this.clients = new Clients(options.tokenScopes);
    this.relay = new Relay({
      outlets: options.outlets,
      cycleDelay: options.cycleDelay,
      sequenceDelay: options.sequenceDelay,
      initialStates: options.initialStates,
      cycleTransient: options.cycleTransient,
    });
    this.users = new Users({ name: options.user, password: options.password }, options.outlets);
    this.scripts = new Scripts(this.relay);
    this.meters = options.meters ? new Meters(this.relay) : null;
    this.objectMeters =
      this.meters && options.meterMap === 'object-model' ? new ObjectModelMeters(this.meters) : null;
    this.autoping = options.autoping
      ? new Autoping(this.relay, options.autopingAnswering, (name) => this.startScript(name))
      : null;
  }

  /** AutoPing's action when an item names a script: start that user function (no arguments). */
  private startScript(name: string): boolean {
    try {
      this.scripts.prepare({ user_function: name }, 'autoping')();
      return true;
    } catch {
      return false;
    }
  }

  get realm(): string {
    return `DLI ${this.config.serial}`;
  }

  dispose(): void {
    this.scripts.stop('all');
    this.relay.dispose();
    this.meters?.dispose();
    this.autoping?.dispose();
  }
}
