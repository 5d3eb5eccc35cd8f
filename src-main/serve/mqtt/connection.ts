/**
 * The service's connection to the broker: MQTT 5, a clean session (nothing is queued for Plugboard
 * while it is away, so no command waits at the broker to be acted on late), a retained last will saying
 * the service is offline. A broker that is down or refuses never stops the service: each failed attempt
 * waits longer before the next (1 s doubling to 30 s, back to 1 s once connected), and the log says it
 * once per change (connected, refused, unreachable), not once per attempt.
 */
import { connect as netConnect, isIP } from 'node:net';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { Duplex } from 'node:stream';
import { MqttClient, type IClientOptions, type IPublishPacket } from 'mqtt';
import type { Logger } from '../../shared/logging';
import { normalizeFingerprint } from '../../dli/tls-pin';
import type { MqttConfig } from './mqtt-options';

const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30_000;
/** How long a stop waits for the broker to take the last message and the goodbye. */
export const STOP_BOUND_MS = 5000;

export interface ConnectionOptions {
  config: MqttConfig;
  clientId: string;
  /** The retained message the broker publishes when the connection drops without a goodbye. */
  will: { topic: string; payload: string };
  log: Logger;
  /** Called on every (re)connection, before any other use of the client. */
  onConnect(client: MqttClient): Promise<void>;
  onMessage(topic: string, payload: Buffer, packet: IPublishPacket): void;
}

export class BusConnection {
  #client: MqttClient | null = null;
  #retry: NodeJS.Timeout | null = null;
  #delay = FIRST_RETRY_MS;
  #said = '';
  #stopped = false;

  constructor(private readonly o: ConnectionOptions) {}

  /** The client while connected, else null: nothing is queued while away (all is sent again on connect). */
  get client(): MqttClient | null {
    return this.#client?.connected ? this.#client : null;
  }

  start(): void {
    this.#stopped = false;
    this.#attempt();
  }

  /**
   * Publish `last` (retained) if connected, then leave; no reconnection after this. A broker that does
   * not acknowledge within `boundMs` is left at once: a stop never waits on it.
   */
  async stop(last?: { topic: string; payload: string }, boundMs = STOP_BOUND_MS): Promise<void> {
    this.#stopped = true;
    if (this.#retry) clearTimeout(this.#retry);
    this.#retry = null;
    const client = this.#client;
    this.#client = null;
    if (!client) return;
    const leave = async () => {
      if (client.connected && last)
        await client.publishAsync(last.topic, last.payload, { qos: 1, retain: true }).catch(() => undefined);
      await client.endAsync(!client.connected).catch(() => undefined);
    };
    let bound: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (bound = setTimeout(resolve, boundMs)));
    await Promise.race([leave(), late]);
    clearTimeout(bound);
    if (!client.disconnected) client.end(true);
  }

  #say(state: string, message: string): void {
    if (state === this.#said) return;
    this.#said = state;
    this.o.log(message);
  }

  #attempt(): void {
    if (this.#stopped) return;
    const { config } = this.o;
    const options: IClientOptions = {
      protocolVersion: 5,
      clientId: this.o.clientId,
      clean: true,
      reconnectPeriod: 0,
      connectTimeout: 10_000,
      keepalive: 30,
      manualConnect: true,
      ...(config.credentials
        ? { username: config.credentials.user, password: config.credentials.password }
        : {}),
      will: { topic: this.o.will.topic, payload: Buffer.from(this.o.will.payload), qos: 1, retain: true },
    };
    const client = new MqttClient(() => this.#stream(), options);
    this.#client = client;
    let failed = false;
    client.on('error', (error: Error & { code?: string | number }) => {
      const refused = /Connection refused/i.test(error.message);
      this.#say(
        refused ? `refused ${error.message}` : `error ${error.code ?? error.message}`,
        refused
          ? `MQTT: ${config.url} refused the connection (${error.message.replace(/^Connection refused: /, '')}): check the user and password (--mqtt-credentials-file or the credential plugboard.mqtt) and the broker's access list. Trying again.`
          : `MQTT: cannot reach ${config.url} (${error.code === 'TLS_CHANGED' ? error.message : (error.code ?? error.message)}). Trying again, less and less often.`,
      );
    });
    client.on('message', (topic, payload, packet) => this.o.onMessage(topic, payload, packet));
    client.on('connect', () => {
      this.#delay = FIRST_RETRY_MS;
      void this.o
        .onConnect(client)
        .then(() => this.#say('connected', `MQTT: connected to ${config.url}; the lab's state is published.`))
        .catch((error: unknown) => {
          this.o.log(`MQTT: publishing to ${config.url} failed`, error);
          client.end(true);
        });
    });
    client.on('close', () => {
      if (failed || this.#client !== client) return;
      failed = true;
      if (this.#said === 'connected')
        this.#say('lost', `MQTT: the connection to ${config.url} was lost. Trying again.`);
      client.removeAllListeners('message');
      client.end(true);
      if (this.#stopped) return;
      this.#retry = setTimeout(() => this.#attempt(), this.#delay);
      this.#delay = Math.min(this.#delay * 2, LAST_RETRY_MS);
    });
    client.connect();
  }

  /** The byte stream to the broker: TCP, TLS against a CA (or the system's), or TLS with a pinned certificate. */
  #stream(): Duplex {
    const { config } = this.o;
    const url = new URL(config.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    const port = Number(url.port);
    if (url.protocol === 'mqtt:') return netConnect({ host, port });
    // The name the certificate must carry; an address is checked against its IP entries instead.
    const servername = isIP(host) ? undefined : host;
    if (!config.fingerprint)
      return tlsConnect({ host, port, servername, ...(config.ca ? { ca: config.ca } : {}) });
    return pinnedStream(
      tlsConnect({ host, port, servername, rejectUnauthorized: false }),
      config.fingerprint,
    );
  }
}

/**
 * A TLS socket whose certificate must have the pinned fingerprint before one byte is written to it: the
 * CONNECT packet (user and password) waits here until the handshake is checked, and a wrong certificate
 * ends the connection with a sentence.
 */
function pinnedStream(socket: TLSSocket, pinned: string): Duplex {
  let checked = false;
  const waiting: { chunk: Buffer; done: (error?: Error | null) => void }[] = [];
  const stream = new Duplex({
    write(chunk: Buffer, _encoding, done) {
      if (checked) socket.write(chunk, done);
      else waiting.push({ chunk, done });
    },
    read() {
      socket.resume();
    },
    final(done) {
      socket.end(done);
    },
    destroy(error, done) {
      socket.destroy();
      done(error);
    },
  });
  socket.on('secureConnect', () => {
    const seen = normalizeFingerprint(socket.getPeerCertificate().fingerprint256 ?? '');
    if (seen !== pinned) {
      const error = Object.assign(
        new Error(`the broker's certificate is SHA-256 ${seen || 'absent'}, not the pinned ${pinned}`),
        { code: 'TLS_CHANGED' },
      );
      stream.destroy(error);
      return;
    }
    checked = true;
    for (const { chunk, done } of waiting.splice(0)) socket.write(chunk, done);
  });
  socket.on('data', (data: Buffer) => {
    if (!stream.push(data)) socket.pause();
  });
  socket.on('end', () => stream.push(null));
  socket.on('error', (error) => stream.destroy(error));
  socket.on('close', () => stream.destroy());
  return stream;
}
