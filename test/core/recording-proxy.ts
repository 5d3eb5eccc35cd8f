/**
 * A raw listener on 127.0.0.1 that records every Authorization header it receives and passes the request
 * on to a real (emulated) controller, so it answers like one: a place a stored secret must not reach
 * unless the person confirmed it. With `tls`, it serves its own self-signed certificate, which
 * `changeCertificate` replaces (as a reset controller, or someone in between, would). With `hold`, a
 * request is passed on only once the promise `hold` returns for it resolves, and with `holdAnswer` the
 * controller's answer is passed back only then (a test's gates).
 */
import {
  createServer as createHttpServer,
  request,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { generateCertificate } from '../../src-main/emulator/tls';

export interface RecordingProxy {
  url: string;
  /** Every Authorization header received, in order (requests without one are not listed). */
  readonly authorizations: string[];
  /** Requests received, with or without credentials. */
  readonly requests: number;
  /** HTTPS only: serve a new certificate from now on; resolves to its SHA-256 fingerprint. */
  changeCertificate(): Promise<string>;
  /** SHA-256 fingerprint of the certificate served now (HTTPS), else null. */
  fingerprint: string | null;
  close(): Promise<void>;
}

export interface ProxyOptions {
  tls?: boolean;
  /** Called as each request arrives; the request is passed on when what it returns resolves. */
  hold?: (req: IncomingMessage) => Promise<void> | undefined;
  /** Called when the controller's answer to a request is in; it is passed back when what it returns resolves. */
  holdAnswer?: (req: IncomingMessage) => Promise<void> | undefined;
}

export async function recordingProxy(target: string, options: ProxyOptions = {}): Promise<RecordingProxy> {
  const authorizations: string[] = [];
  let requests = 0;
  const forward = (req: IncomingMessage, res: ServerResponse): void => {
    requests++;
    if (req.headers.authorization) authorizations.push(req.headers.authorization);
    const held = options.hold?.(req);
    if (held) void held.then(() => pass(req, res));
    else pass(req, res);
  };
  const pass = (req: IncomingMessage, res: ServerResponse): void => {
    const upstream = new URL(req.url ?? '/', target);
    const outgoing = request(
      upstream,
      { method: req.method, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        const reply = () => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        };
        const held = options.holdAnswer?.(req);
        if (held) void held.then(reply);
        else reply();
      },
    );
    outgoing.on('error', () => res.destroy());
    req.pipe(outgoing);
  };
  let certificate = options.tls ? await generateCertificate('proxy', '127.0.0.1') : null;
  const server = certificate
    ? createHttpsServer({ key: certificate.key, cert: certificate.cert }, forward)
    : createHttpServer(forward);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: RecordingProxy = {
    url: `${certificate ? 'https' : 'http'}://127.0.0.1:${port}`,
    authorizations,
    get requests() {
      return requests;
    },
    fingerprint: certificate?.fingerprint256 ?? null,
    async changeCertificate() {
      if (!('setSecureContext' in server)) throw new Error('not an HTTPS proxy');
      certificate = await generateCertificate('proxy', '127.0.0.1');
      server.setSecureContext({ key: certificate.key, cert: certificate.cert });
      server.closeAllConnections();
      proxy.fingerprint = certificate.fingerprint256;
      return certificate.fingerprint256;
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  return proxy;
}
