import type { Authenticator } from './auth';
import type { Controller } from './controller';
import { advertise, type Advertisement } from './mdns';
import type { ResolvedOptions } from './options';
import type { HttpFront } from './server';
import { generateCertificate, type GeneratedCertificate } from './tls';

/**
 * Power and network life of one controller: listening, going offline and coming back, rebooting,
 * mDNS advertisement, certificate changes, closing.
 */
export class Lifecycle {
  private offlineNow = false;
  private rebootRun: Promise<void> | null = null;
  private wake: (() => void) | null = null;
  private wakeTimer: NodeJS.Timeout | undefined;
  private advertisement: Advertisement | null = null;
  private closed = false;

  constructor(
    private readonly front: HttpFront,
    private readonly controller: Controller,
    private readonly auth: Authenticator,
    private readonly options: ResolvedOptions,
    public certificate: GeneratedCertificate | null,
  ) {}

  get offline(): boolean {
    return this.offlineNow;
  }

  get rebooting(): boolean {
    return this.rebootRun !== null;
  }

  async start(): Promise<void> {
    await this.front.listen();
    await this.startAdvertising();
  }

  async goOffline(): Promise<void> {
    if (this.offlineNow) return;
    this.offlineNow = true;
    await this.stopAdvertising();
    await this.front.shutdown();
  }

  async comeBack(): Promise<void> {
    if (this.closed || !this.offlineNow) return;
    for (let attempt = 0; ; attempt++) {
      try {
        await this.front.listen();
        break;
      } catch (error) {
        // The port may linger for a moment after the close; anything else is a real failure.
        if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || attempt >= 50) throw error;
        await this.pause(0.1);
      }
    }
    this.offlineNow = false;
    await this.startAdvertising();
  }

  /** Down for `rebootSeconds` (scripts stop, nonces are forgotten), then up with transient states reverted. */
  reboot(): Promise<void> {
    this.rebootRun ??= (async () => {
      try {
        this.controller.scripts.reset();
        this.auth.nonces.clear();
        await this.goOffline();
        await this.pause(this.options.rebootSeconds);
        if (this.closed) return;
        this.controller.relay.revertTransientStates();
        await this.comeBack();
      } finally {
        this.rebootRun = null;
      }
    })();
    return this.rebootRun;
  }

  /** A new self-signed certificate; open connections are cut so the next request sees it. */
  async changeCertificate(): Promise<string> {
    if (!this.certificate) throw new Error('This controller does not serve HTTPS (start it with tls: true).');
    const next = await generateCertificate(this.controller.config.hostname, this.options.host);
    this.front.setCertificate(next);
    this.front.dropConnections();
    this.certificate = next;
    return next.fingerprint256;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearTimeout(this.wakeTimer);
    this.wake?.();
    await this.stopAdvertising();
    await this.front.shutdown();
    this.controller.dispose();
  }

  private pause(seconds: number): Promise<void> {
    return new Promise((resolve) => {
      this.wake = resolve;
      this.wakeTimer = setTimeout(resolve, seconds * 1000);
    });
  }

  private async startAdvertising(): Promise<void> {
    if (!this.options.mdns || this.advertisement || this.closed) return;
    this.advertisement = await advertise(
      {
        name: this.controller.config.name,
        port: this.front.port,
        tls: this.options.tls,
        serial: this.controller.config.serial,
        model: this.controller.config.model,
        firmware: this.controller.config.firmware,
      },
      (error) => console.error(`emulator: mDNS: ${error.message}`),
    );
  }

  private async stopAdvertising(): Promise<void> {
    const advertisement = this.advertisement;
    this.advertisement = null;
    await advertisement?.stop();
  }
}
