/**
 * pdudaemon's protocol on one port: its clients (labgrid's PDUDaemonDriver, LAVA's pduclient)
 * use 16421 for both the HTTP API and the TCP line protocol, so each connection is told apart by its
 * first bytes: an HTTP method and a space-slash (`GET /`) is HTTP, anything else a TCP request line.
 *
 * Answers as pdudaemon does: HTTP 200 `OK - accepted request` once the unit accepted the command, TCP
 * `ack`; a refusal is an HTTP error status with one sentence, and over TCP `nack: <sentence>` (pdudaemon
 * answers `nack` or its exception's text; pduclient prints whatever is not `ack`, so the person sees why,
 * e.g. who holds a reservation). `get-status` answers `{"state": "on"|"off"}` over HTTP and `on`/`off` over
 * TCP (pdudaemon PR 219). pdudaemon has no authentication: the activity log records each request as
 * the client its network names (`--allow ci=10.20.0.0/16[operator tags=farm]`), else as
 * `pdudaemon client <remote address>`, at the door `pdudaemon-http` or `pdudaemon-tcp`.
 *
 * `plugboard serve` mounts it: `net.createServer((socket) => listener.handleConnection(socket))`.
 */
import { createServer as createHttpServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { Actor, Caller } from '../../src-preload/contract';
import { systemClock, type Clock } from '../core/index';
import { consoleLogger, type Logger } from '../shared/logging';
import { createConnectionGuard, type ConnectionLimits } from '../web/connection-guard';
import { excerpt, limitedLog } from '../web/log-limit';
import { pdudaemonCaller } from './allowed-clients';
import { CONNECTION_LIMITS, hostAllowed, plainAddress, type ClientNetworks } from './network';
import { runPduRequest, type PduAnswer, type PduCore } from './pdudaemon-actions';
import { parseHttpTarget, parseTcpLine, PduRefusal, type PduRequest } from './pdudaemon-request';

export interface PdudaemonListenerOptions {
  log?: Logger;
  /** How long `wait=1` waits for the controller to confirm the physical state, ms (default 60 s). */
  confirmTimeoutMs?: number;
  /** Connection caps and the deadline from connect to a complete request (default CONNECTION_LIMITS.pdudaemon). */
  limits?: Partial<ConnectionLimits>;
  /** DNS names clients use for this machine (--host-name): an HTTP request naming another Host is refused. */
  hostNames?: readonly string[];
  /** Timers for an on/off `delay` and the deadlines (default: the real clock; tests pass the Core's fake one). */
  clock?: Clock;
  /**
   * The `--allow` networks with their named clients (allowed-clients.ts): a request from a named
   * network acts as that client, with its role and scope; any other as an operator named by its address.
   */
  allow?: ClientNetworks | null;
  /** Told of every answer: the HTTP status, or for TCP 200 (ack or a state) and the refusal's status. */
  onAnswered?: (door: 'http' | 'tcp', status: number) => void;
}

export interface PdudaemonListener {
  /** Serve one accepted connection (HTTP or a TCP line). */
  handleConnection(socket: Socket): void;
  /**
   * Stop: new requests are refused, waits (`wait=1`, an on/off delay) end with 503, idle connections
   * close now and the others once their answer is written. Resolves when every connection is closed;
   * with `graceMs`, whatever is still open then is destroyed.
   */
  close(graceMs?: number): Promise<void>;
}

/** pdudaemon reads one chunk of at most 16 KiB per TCP request; Node's HTTP parser takes as much for headers. */
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

/** The TCP request in what was read: up to a newline, or all of it; null when it is over the cap. */
function tcpRequest(data: Buffer): string | null {
  const newline = data.indexOf(0x0a);
  const end = newline < 0 ? data.length : newline;
  return end >= MAX_REQUEST_BYTES ? null : data.subarray(0, end).toString('utf8');
}

export function createPdudaemonListener(
  core: PduCore,
  options: PdudaemonListenerOptions = {},
): PdudaemonListener {
  const log = options.log ?? consoleLogger('[plugboard pdudaemon]');
  const clock = options.clock ?? systemClock;
  const confirmTimeoutMs = options.confirmTimeoutMs ?? 60_000;
  const hostNames = options.hostNames ?? [];
  const stopping = new AbortController();
  const inFlight = new Set<Promise<unknown>>();
  // What strangers can make it say (refusals, connections closed or refused) is escaped and bounded.
  const refusals = limitedLog(log, { clock });
  const guard = createConnectionGuard({
    name: 'pdudaemon',
    limits: { ...CONNECTION_LIMITS.pdudaemon, ...options.limits },
    log: refusals,
    clock,
  });

  // A named network's client, or an operator named by its address (an IPv4 client of a dual-stack
  // listener by its IPv4 address): it switches and reads outlets, and the Core refuses it anything more.
  const addressOf = (socket: Socket) => plainAddress(socket.remoteAddress ?? 'unknown address');
  const actorOf = (door: Actor['door'], socket: Socket): Caller =>
    pdudaemonCaller(door, addressOf(socket), options.allow ?? null);

  async function answer(request: () => PduRequest, actor: Caller): Promise<PduAnswer | PduRefusal> {
    try {
      if (stopping.signal.aborted)
        throw new PduRefusal(503, 'Plugboard is stopping: send the request again once it runs.');
      const parsed = request();
      const work = runPduRequest(core, actor, parsed, {
        confirmTimeoutMs,
        signal: stopping.signal,
        log,
        clock,
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

  const http = createHttpServer(
    { maxHeaderSize: MAX_REQUEST_BYTES },
    (req: IncomingMessage, res: ServerResponse) => {
      const socket = req.socket;
      const from = addressOf(socket);
      guard.requestStarted(socket);
      res.once('prefinish', () => guard.requestAnswered(socket));
      // pdudaemon's clients send one request per connection: it closes once the answer is written.
      res.shouldKeepAlive = false;
      const send = (status: number, body: string, type = 'text/plain; charset=utf-8', reason?: string) => {
        options.onAnswered?.('http', status);
        const headers = { 'Content-Type': type, 'Cache-Control': 'no-store' };
        if (reason) res.writeHead(status, reasonPhrase(reason), headers);
        else res.writeHead(status, headers);
        res.end(body);
      };
      const refuse = (status: number, sentence: string) => {
        refusals(`pdudaemon HTTP ${excerpt(req.url ?? '')} from ${from}: ${status} ${sentence}`);
        send(status, `${sentence}\n`, undefined, sentence);
      };
      // Only GET (what pdudaemon's clients send): a HEAD from a link checker or proxy must not switch anything.
      if (req.method !== 'GET') {
        res.setHeader('Allow', 'GET');
        return send(405, 'pdudaemon requests are GET /power/control/<command>?hostname=…&port=….\n');
      }
      // A web page open in a browser could otherwise switch power with <img src="http://127.0.0.1:16421/…">
      // (pdudaemon's protocol has no authentication, and GET is its verb). Browsers mark their requests
      // with Sec-Fetch-Site (and Origin); pduclient, labgrid, curl and Node's fetch never send them.
      if (req.headers['sec-fetch-site'] ?? req.headers.origin)
        return refuse(
          403,
          'Refused: pdudaemon requests come from tools such as pduclient, labgrid or curl, not from a web page.',
        );
      // DNS rebinding: a page whose name now resolves to this machine would send its own name as Host.
      if (!hostAllowed(req.headers.host, hostNames))
        return refuse(
          403,
          `Refused: the Host ${excerpt(req.headers.host ?? '')} is not this machine's address or a name given with --host-name.`,
        );
      void answer(() => parseHttpTarget(req.url ?? '/'), actorOf('pdudaemon-http', socket)).then((result) => {
        if (result instanceof PduRefusal) return refuse(result.status, result.message);
        if (result.kind === 'state')
          return send(200, `{"state": "${result.on ? 'on' : 'off'}"}\n`, 'application/json');
        send(200, 'OK - accepted request\n');
      });
    },
  );

  function serveTcp(socket: Socket, data: Buffer): void {
    guard.requestStarted(socket);
    const line = tcpRequest(data);
    const request = () => {
      if (line === null)
        throw new PduRefusal(
          413,
          `The request is over ${MAX_REQUEST_BYTES / 1024} KiB: send one line "<pdu> <port> <command> [delay]".`,
        );
      return parseTcpLine(line);
    };
    void answer(request, actorOf('pdudaemon-tcp', socket)).then((result) => {
      options.onAnswered?.('tcp', result instanceof PduRefusal ? result.status : 200);
      // Whatever the answer, the socket is destroyed once it is written (the guard sees to it).
      if (result instanceof PduRefusal) {
        refusals(
          `pdudaemon TCP ${excerpt(line ?? data.subarray(0, 200).toString('utf8'))} from ${addressOf(socket)}: ${result.message}`,
        );
        socket.end(`nack: ${result.message}\n`);
      } else if (result.kind === 'state') socket.end(result.on ? 'on\n' : 'off\n');
      else socket.end('ack\n');
    });
  }

  return {
    handleConnection(socket) {
      if (!guard.admit(socket)) return;
      let buffered = Buffer.alloc(0);
      const onReadable = () => {
        let chunk: Buffer | null;
        while ((chunk = socket.read() as Buffer | null) !== null) buffered = Buffer.concat([buffered, chunk]);
        const kind = sniff(buffered);
        if (kind === 'more') return;
        socket.off('readable', onReadable);
        socket.off('end', onEnd);
        if (kind === 'http') {
          // The HTTP server never listens itself, so its own header and request timers do not run:
          // the guard's deadline covers the time to a complete request.
          socket.unshift(buffered);
          http.emit('connection', socket);
        } else serveTcp(socket, buffered);
      };
      // A client that half-closes before we decided: whatever it sent is a TCP line.
      const onEnd = () => {
        socket.off('readable', onReadable);
        if (buffered.length) serveTcp(socket, buffered);
        else socket.destroy();
      };
      socket.on('readable', onReadable);
      socket.once('end', onEnd);
    },
    async close(graceMs) {
      stopping.abort();
      guard.closeIdle();
      const drained = guard.whenEmpty();
      if (graceMs === undefined) await drained;
      else {
        let timer: ReturnType<Clock['setTimeout']> | undefined;
        await Promise.race([
          drained,
          new Promise<void>((resolve) => (timer = clock.setTimeout(resolve, graceMs))),
        ]);
        if (timer) clock.clearTimeout(timer);
        guard.closeAll();
      }
      refusals.close();
    },
  };
}
