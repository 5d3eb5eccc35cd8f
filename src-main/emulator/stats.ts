/** One answered (or dropped) request; never the Authorization header. */
export interface RequestLogEntry {
  /** Epoch ms when the request arrived. */
  time: number;
  method: string;
  path: string;
  /** 0 when the connection was dropped or the request never answered. */
  status: number;
  durationMs: number;
}

/** Request statistics for tests and benchmarks. */
export interface RequestStats {
  /** Requests received (including ones refused with 401 or dropped by a fault). */
  readonly requests: number;
  /** 401 answers. */
  readonly unauthorized: number;
  /** Requests being handled right now. */
  readonly inFlight: number;
  /** The most requests in flight at once since the last reset. */
  readonly maxInFlight: number;
  /** Answers by status code. */
  readonly byStatus: Readonly<Record<number, number>>;
  /** The most recent requests, oldest first (at most `logLimit`). */
  readonly log: readonly RequestLogEntry[];
  readonly logLimit: number;
  /** Zeroes the counters and empties the log (requests in flight stay in flight). */
  reset(): void;
}

export class StatsRecorder implements RequestStats {
  requests = 0;
  unauthorized = 0;
  inFlight = 0;
  maxInFlight = 0;
  byStatus: Record<number, number> = {};
  log: RequestLogEntry[] = [];

  constructor(readonly logLimit = 500) {}

  /** Call when a request arrives; call the returned function exactly once when it is over. */
  begin(method: string, path: string): (status: number) => void {
    this.requests++;
    this.inFlight++;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
    const time = Date.now();
    let done = false;
    return (status) => {
      if (done) return;
      done = true;
      this.inFlight = Math.max(0, this.inFlight - 1);
      if (status === 401) this.unauthorized++;
      this.byStatus[status] = (this.byStatus[status] ?? 0) + 1;
      this.log.push({ time, method, path, status, durationMs: Date.now() - time });
      if (this.log.length > this.logLimit) this.log.splice(0, this.log.length - this.logLimit);
    };
  }

  reset(): void {
    this.requests = 0;
    this.unauthorized = 0;
    this.maxInFlight = this.inFlight;
    this.byStatus = {};
    this.log = [];
  }
}
