import { firmwareFeatures, type FirmwareFeatures } from './firmware';
import { Meters } from './meters';
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

/** Everything a controller knows, independent of HTTP. */
export class Controller {
  readonly config: ControllerConfig;
  readonly features: FirmwareFeatures;
  readonly relay: Relay;
  readonly users: Users;
  readonly clients = new Clients();
  readonly scripts: Scripts;
  /** null on controllers without meters. */
  readonly meters: Meters | null;

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
    this.relay = new Relay({
      outlets: options.outlets,
      cycleDelay: options.cycleDelay,
      sequenceDelay: options.sequenceDelay,
      initialStates: options.initialStates,
    });
    this.users = new Users({ name: options.user, password: options.password }, options.outlets);
    this.scripts = new Scripts(this.relay);
    this.meters = options.meters ? new Meters(this.relay) : null;
  }

  get realm(): string {
    return `DLI ${this.config.serial}`;
  }

  dispose(): void {
    this.scripts.stop('all');
    this.relay.dispose();
    this.meters?.dispose();
  }
}
