import {
  createServer as createHttpServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';

export interface Certificate {
  key: string;
  cert: string;
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * The listening socket and every connection on it. Going offline really closes the listener and
 * destroys open connections (clients see refused connections), and coming back listens on the same
 * port again — how a rebooting or unplugged controller looks from the network.
 */
export class HttpFront {
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();
  private readonly hanging = new Set<ServerResponse>();
  private boundPort: number;
  private listening = false;
  /** TLS handshakes so far: full ones, and resumed sessions. */
  readonly handshakes = { full: 0, resumed: 0 };
  /** When false, every connection rotates the ticket keys, so no session can be resumed. */
  resumption = true;

  constructor(
    handler: Handler,
    private readonly host: string,
    port: number,
    tls: Certificate | null,
    onClientError: (status: number) => void,
  ) {
    this.boundPort = port;
    this.server = tls
      ? createHttpsServer({ key: tls.key, cert: tls.cert }, handler)
      : createHttpServer(handler);
    this.server.on('connection', (socket: Socket) => {
      // No resumption: new ticket keys before each handshake, so no earlier ticket decrypts.
      if (tls && !this.resumption)
        (this.server as unknown as { setTicketKeys(keys: Buffer): void }).setTicketKeys(randomBytes(48));
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    this.server.on('tlsClientError', (_error: Error, socket: Socket) => socket.destroy());
    this.server.on('secureConnection', (socket: TLSSocket) => {
      if (socket.isSessionReused()) this.handshakes.resumed += 1;
      else this.handshakes.full += 1;
    });
    this.server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
      if (error.code === 'ECONNRESET' || !socket.writable) {
        socket.destroy();
        return;
      }
      const status =
        error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
      const body = JSON.stringify({
        error: status === 431 ? 'headers_too_large' : status === 408 ? 'timeout' : 'bad_request',
        message: status === 431 ? 'The request headers are too large.' : 'The request is not valid HTTP.',
      });
      onClientError(status);
      socket.end(
        `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
      );
    });
  }

  /** The port actually bound (known after the first listen, kept across reboots). */
  get port(): number {
    return this.boundPort;
  }

  listen(): Promise<void> {
    if (this.listening) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const onError = (error: Error): void => {
        this.server.off('listening', onListening);
        reject(error);
      };
      const onListening = (): void => {
        this.server.off('error', onError);
        const address = this.server.address();
        if (address && typeof address === 'object') this.boundPort = address.port;
        this.listening = true;
        resolve();
      };
      this.server.once('error', onError);
      this.server.once('listening', onListening);
      this.server.listen(this.boundPort, this.host);
    });
  }

  /** Stops listening and cuts every connection; resolves when the socket is closed. */
  shutdown(): Promise<void> {
    this.releaseHanging();
    if (!this.listening) {
      for (const socket of this.sockets) socket.destroy();
      return Promise.resolve();
    }
    this.listening = false;
    return new Promise((resolve) => {
      this.server.close(() => resolve());
      for (const socket of this.sockets) socket.destroy();
    });
  }

  /** Keeps a request unanswered until the fault is cleared or the controller goes down. */
  hang(res: ServerResponse): void {
    this.hanging.add(res);
    res.once('close', () => this.hanging.delete(res));
  }

  /** Cuts every open connection (the listener stays). */
  dropConnections(): void {
    for (const socket of this.sockets) socket.destroy();
  }

  releaseHanging(): void {
    for (const res of this.hanging) res.destroy();
    this.hanging.clear();
  }

  /** New certificate for new connections (open ones keep the old one until they close). */
  setCertificate(tls: Certificate): void {
    if (!('setSecureContext' in this.server)) throw new Error('This controller does not serve HTTPS.');
    (this.server as unknown as { setSecureContext(options: Certificate): void }).setSecureContext(tls);
  }
}
