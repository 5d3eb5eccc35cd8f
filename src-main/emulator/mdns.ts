export interface Advertisement {
  stop(): Promise<void>;
}

export interface AdvertisedController {
  name: string;
  port: number;
  tls: boolean;
  serial: string;
  model: string;
  firmware: string;
}

/**
 * Announces a controller over mDNS as `_http._tcp` (`_https._tcp` with TLS), instance name = the
 * controller's name, TXT `path=/restapi/`, vendor, model, serial and firmware. Real units were never
 * seen advertising; this exists so discovery can be tried end to end. Multicast goes out on every
 * interface the host has: run it only where that is allowed (a private network namespace in tests).
 */
export async function advertise(
  controller: AdvertisedController,
  onError: (error: Error) => void,
): Promise<Advertisement> {
  const { default: Bonjour } = await import('bonjour-service');
  const bonjour = new Bonjour({}, onError);
  bonjour.publish({
    name: controller.name,
    type: controller.tls ? 'https' : 'http',
    port: controller.port,
    txt: {
      path: '/restapi/',
      vendor: 'Digital Loggers',
      model: controller.model,
      serial: controller.serial,
      firmware: controller.firmware,
    },
  });
  return {
    stop: () =>
      new Promise<void>((resolve) => {
        // Goodbye packets first; never let a stuck socket hold up shutting down.
        const timer = setTimeout(resolve, 2000);
        bonjour.unpublishAll(() =>
          bonjour.destroy(() => {
            clearTimeout(timer);
            resolve();
          }),
        );
      }),
  };
}
