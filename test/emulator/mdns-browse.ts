/**
 * Runs inside a private network namespace next to `npm run emulator -- --mdns`: browses `_http._tcp`
 * with bonjour-service (a browser the emulator does not share code with), then asks the address it
 * found for `/restapi/` and prints one JSON line: the service, and the challenge it got.
 */
import { request } from 'node:http';
import Bonjour from 'bonjour-service';

const wanted = process.argv[2] ?? '';
const bonjour = new Bonjour();
const timer = setTimeout(() => {
  console.log(JSON.stringify({ found: false }));
  process.exit(1);
}, 30_000);

bonjour.find({ type: 'http' }, (service) => {
  if (service.name !== wanted) return;
  const address = service.addresses?.[0] ?? service.referer?.address ?? '127.0.0.1';
  request({ host: address, port: service.port, path: '/restapi/' }, (res) => {
    res.resume();
    console.log(
      JSON.stringify({
        found: true,
        name: service.name,
        port: service.port,
        txt: service.txt as unknown,
        status: res.statusCode,
        challenge: res.headers['www-authenticate'] ?? null,
      }),
    );
    clearTimeout(timer);
    bonjour.destroy(() => process.exit(0));
  }).end();
});
