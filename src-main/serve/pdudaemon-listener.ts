/**
 * pdudaemon's protocol on one port (issue 15): its clients (labgrid's PDUDaemonDriver, LAVA's pduclient)
 * use 16421 for both the HTTP API and the TCP line protocol, so each connection is told apart by its
 * first bytes: an HTTP method and a space-slash (`GET /`) is HTTP, anything else a TCP request line.
 *
 * Answers as pdudaemon does: HTTP 200 `OK - accepted request` once the unit accepted the command, TCP
 * `ack`; a refusal is an HTTP error status with one sentence, and over TCP `nack: <sentence>` (pdudaemon
 * answers `nack` or its exception's text; pduclient prints whatever is not `ack`, so the person sees why,
 * e.g. who holds a reservation). `get-status` answers `{"state": "on"|"off"}` over HTTP and `on`/`off` over
 * TCP (pdudaemon PR 219). pdudaemon has no authentication: the activity log records each request as
 * `pdudaemon client <remote address>` at the door `pdudaemon-http` or `pdudaemon-tcp`.
 *
 * `plugboard serve` mounts it: `net.createServer((socket) => listener.handleConnection(socket))`.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Actor, Caller } from '../../src-preload/contract';
import { systemClock, type Clock } from '../core/clock';
import { consoleLogger, type Logger } from '../shared/logging';
import { runPduRequest, type PduAnswer, type PduCore } from './pdudaemon-actions';
import { parseHttpTarget, parseTcpLine, PduRefusal, type PduRequest } from './pdudaemon-request';

export interface PdudaemonListenerOptions {
  log?: Logger;
  /** How long `wait=1` waits for the controller to confirm the physical state, ms (default 60 s). */
  confirmTimeoutMs?: number;
  /** A connection that sends no complete request within this is closed, ms (default 10 s). */
  idleTimeoutMs?: number;
  /** Timers for an on/off `delay` (default: the real clock; tests pass the Core's fake one). */
  clock?: Clock;
  /** Told of every answer: the HTTP status, or for TCP 200 (ack or a state) and the refusal's status. */
  onAnswered?: (door: 'http' | 'tcp', status: number) => void;
}

export interface PdudaemonListener {
  /** Serve one accepted connection (HTTP or a TCP line). */
  handleConnection(socket: Socket): void;
  /**
   * Stop: new requests are refused, waits (`wait=1`, an on/off delay) end with 503, open connections
   * are closed once their answer is written. Resolves when every request in progress has answered.
   */
  close(): Promise<void>;
}

/** pdudaemon reads one chunk of at most 16 KiB per TCP request. */
const MAX_REQUEST_BYTES = 16_384;
const HTTP_START = /^(GET|HEAD|POST|PUT|DELETE|OPTIONS|PATCH|TRACE|CONNECT) \//;
const HTTP_PREFIX = /^[A-Z]{0,7}( \/?)?$/;

/**
 * The sentence as the status line's reason phrase too: python-requests' `raise_for_status()` (labgrid)
 * shows the reason, never the body. Printable ASCII only.
 */
function reasonPhrase(sentence: string): string {
  return sentence
    .replace(/[‘’]/g, "'")
    .replace(/[–—]/g, '-')
    .replace(/[^\x20-\x7E]/g, '?')
    .slice(0, 300);
}

/** 'http', 'tcp', or 'more' when the bytes so far could still be the start of an HTTP request line. */
function sniff(data: Buffer): 'http' | 'tcp' | 'more' {
  const head = data.subarray(0, 16).toString('latin1');
  if (HTTP_START.test(head)) return 'http';
  return HTTP_PREFIX.test(head) && data.length < MAX_REQUEST_BYTES ? 'more' : 'tcp';
}

export function createPdudaemonListener(
  core: PduCore,
  options: PdudaemonListenerOptions = {},
): PdudaemonListener {
  const log = options.log ?? consoleLogger('[plugboard pdudaemon]');
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 60_000;
  const idleTimeoutMs = options.idleTimeoutMs ?? 10_000;
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  const sockets = new Set<Socket>();

  // An IPv4 client of a dual-stack listener shows as ::ffff:a.b.c.d: named by its IPv4 address. An
  // operator: it switches and reads outlets, and the Core refuses it anything more.
  const actorOf = (door: Actor['door'], socket: Socket): Caller => ({
    door,
    who: `pdudaemon client ${socket.remoteAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '') ?? 'unknown address'}`,
    role: 'operator',
  });

  async function answer(request: () => PduRequest, actor: Caller): Promise<PduAnswer | PduRefusal> {
    try {
      if (stopping.signal.aborted)
        throw new PduRefusal(503, 'Plugboard is stopping: send the request again once it runs.');
      const parsed = request();
      const work = runPduRequest(core, actor, parsed, {
        confirmTimeoutMs,
        signal: stopping.signal,
        log,
        clock: options.clock ?? systemClock,
      });
      inFlight.add(work);
      try {
        return await work;
      } finally {
        inFlight.delete(work);
      }
    } catch (error) {
      if (error instanceof PduRefusal) return error;
      log('a pdudaemon request failed inside Plugboard', error);
      return new PduRefusal(500, 'Plugboard hit an internal error; the details are in its log.');
    }
  }

  const http = createHttpServer((req: IncomingMessage, res: ServerResponse) => {
    const socket = req.socket;
    // No inactivity limit while the request is carried out (a reboot's wait is silent); idle again after.
    socket.setTimeout(0);
    res.once('finish', () => socket.setTimeout(idleTimeoutMs));
    const send = (status: number, body: string, type = 'text/plain; charset=utf-8', reason?: string) => {
      options.onAnswered?.('http', status);
      const headers = { 'Content-Type': type, 'Cache-Control': 'no-store' };
      if (reason) res.writeHead(status, reasonPhrase(reason), headers);
      else res.writeHead(status, headers);
      res.end(body);
    };
    // Only GET (what pdudaemon's clients send): a HEAD from a link checker or proxy must not switch anything.
    if (req.method !== 'GET') {
      res.setHeader('Allow', 'GET');
      return send(405, 'pdudaemon requests are GET /power/control/<command>?hostname=…&port=….\n');
    }
    // A web page open in a browser could otherwise switch power with <img src="http://127.0.0.1:16421/…">
    // (pdudaemon's protocol has no authentication, and GET is its verb). Browsers mark their requests
    // with Sec-Fetch-Site (and Origin); pduclient, labgrid, curl and Node's fetch never send them.
    if (req.headers['sec-fetch-site'] ?? req.headers.origin) {
      const refusal =
        'Refused: pdudaemon requests come from tools such as pduclient, labgrid or curl, not from a web page.';
      log(`pdudaemon HTTP ${req.url ?? ''} from ${socket.remoteAddress ?? '?'}: 403 (a browser request)`);
      return send(403, `${refusal}\n`, undefined, refusal);
    }
    void answer(() => parseHttpTarget(req.url ?? '/'), actorOf('pdudaemon-http', socket)).then((result) => {
      if (result instanceof PduRefusal) {
        log(
          `pdudaemon HTTP ${req.url ?? ''} from ${socket.remoteAddress ?? '?'}: ${result.status} ${result.message}`,
        );
        return send(result.status, `${result.message}\n`, undefined, result.message);
      }
      if (result.kind === 'state')
        return send(200, `{"state": "${result.on ? 'on' : 'off'}"}\n`, 'application/json');
      send(200, 'OK - accepted request\n');
    });
  });
  http.keepAliveTimeout = 5_000;

  function serveTcp(socket: Socket, data: string): void {
    socket.setTimeout(0);
    void answer(() => parseTcpLine(data), actorOf('pdudaemon-tcp', socket)).then((result) => {
      options.onAnswered?.('tcp', result instanceof PduRefusal ? result.status : 200);
      if (result instanceof PduRefusal) {
        log(
          `pdudaemon TCP "${data.trim().slice(0, 80)}" from ${socket.remoteAddress ?? '?'}: ${result.message}`,
        );
        socket.end(`nack: ${result.message}\n`);
      } else if (result.kind === 'state') socket.end(result.on ? 'on\n' : 'off\n');
      else socket.end('ack\n');
    });
  }

  return {
    handleConnection(socket) {
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
      socket.on('error', () => undefined);
      socket.setTimeout(idleTimeoutMs, () => socket.destroy());
      let buffered = Buffer.alloc(0);
      const onReadable = () => {
        let chunk: Buffer | null;
        while ((chunk = socket.read() as Buffer | null) !== null) buffered = Buffer.concat([buffered, chunk]);
        const kind = sniff(buffered);
        if (kind === 'more') return;
        socket.off('readable', onReadable);
        socket.off('end', onEnd);
        if (kind === 'http') {
          // The HTTP server never listens itself, so its header and request timers do not run: the
          // socket's inactivity limit stands in for them until a request is complete.
          socket.unshift(buffered);
          http.emit('connection', socket);
        } else serveTcp(socket, buffered.subarray(0, MAX_REQUEST_BYTES).toString('utf8'));
      };
      // A client that half-closes before we decided: whatever it sent is a TCP line.
      const onEnd = () => {
        socket.off('readable', onReadable);
        if (buffered.length) serveTcp(socket, buffered.toString('utf8'));
        else socket.destroy();
      };
      socket.on('readable', onReadable);
      socket.once('end', onEnd);
    },
    async close() {
      stopping.abort();
      await Promise.allSettled([...inFlight]);
      http.closeIdleConnections();
      for (const socket of sockets) socket.end();
    },
  };
}
