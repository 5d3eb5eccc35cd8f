/**
 * An HTTPS front for an emulator that closes every connection after one answer (`Connection: close`, as
 * real units do, reference §13) and counts TLS handshakes server-side: full, or resumed
 * (`isSessionReused()` on each `secureConnection`). `resume: false` makes it a server that never resumes
 * (no session tickets, no session cache). Used by the TLS tests and bench measurement 10.
 */
import { constants } from 'node:crypto';
import { request, type IncomingMessage, type ServerResponse } from 'node:http';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { generateCertificate } from '../../src-main/emulator/tls';

export interface ClosingHttps {
  url: string;
  /** SHA-256 fingerprint of the certificate served now. */
  fingerprint: string;
  readonly handshakes: { full: number; resumed: number };
  /** Requests answered. */
  readonly requests: number;
  /** Serve a new certificate (and new ticket keys) from now on; resolves to its fingerprint. */
  changeCertificate(): Promise<string>;
  close(): Promise<void>;
}

export async function closingHttps(
  target: string,
  options: { resume?: boolean } = {},
): Promise<ClosingHttps> {
  const resume = options.resume !== false;
  const handshakes = { full: 0, resumed: 0 };
  let requests = 0;
  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    const upstream = new URL(req.url ?? '/', target);
    const outgoing = request(
      upstream,
      { method: req.method, headers: { ...req.headers, host: upstream.host, connection: 'close' } },
      (answer) => {
        requests++;
        const headers = { ...answer.headers, connection: 'close' };
        res.writeHead(answer.statusCode ?? 502, headers);
        answer.pipe(res);
      },
    );
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  };
  let certificate = await generateCertificate('closing front', '127.0.0.1');
  const secureOptions = resume ? 0 : constants.SSL_OP_NO_TICKET;
  const server = createServer({ key: certificate.key, cert: certificate.cert, secureOptions }, forward);
  server.on('secureConnection', (socket: TLSSocket) => {
    if (socket.isSessionReused()) handshakes.resumed++;
    else handshakes.full++;
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  const front: ClosingHttps = {
    url: `https://127.0.0.1:${port}`,
    fingerprint: certificate.fingerprint256,
    handshakes,
    get requests() {
      return requests;
    },
    async changeCertificate() {
      certificate = await generateCertificate('closing front', '127.0.0.1');
      server.setSecureContext({ key: certificate.key, cert: certificate.cert, secureOptions });
      server.closeAllConnections();
      front.fingerprint = certificate.fingerprint256;
      return certificate.fingerprint256;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((done) => server.close(() => done()));
    },
  };
  return front;
}
