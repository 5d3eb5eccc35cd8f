/**
 * Measurement 18's knobs: the full run's defaults, --quick's, and environment variables that override
 * either (for a quick look at one K, or a longer run on a quiet machine).
 *   PLUGBOARD_BENCH_M18_DESKS=1,4,8         the numbers of desks (0 skips the rounds)
 *   PLUGBOARD_BENCH_M18_IDLE_SECONDS=30     the idle window counting the unit's requests
 *   PLUGBOARD_BENCH_M18_SWITCHES=5          switches per K (one every SWITCH_EVERY_MS at most)
 *   PLUGBOARD_BENCH_M18_CHANGES=5           outside changes at the unit per K
 *   PLUGBOARD_BENCH_M18_SCALE_SECONDS=60    each CPU window of the 200-controller service
 *   PLUGBOARD_BENCH_M18_CLIENTS=50          link clients attached in that run (0 skips the run)
 */
export interface M18Options {
  desks: number[];
  idleSeconds: number;
  switches: number;
  changes: number;
  scaleSeconds: number;
  clients: number;
}

function numberFrom(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name}=${raw}: give a whole number of at least ${min}.`);
  return value;
}

export function m18Options(quick: boolean): M18Options {
  const desksRaw = process.env.PLUGBOARD_BENCH_M18_DESKS;
  const desks =
    desksRaw === '0' ? [] : desksRaw ? desksRaw.split(',').map((s) => Number(s.trim())) : [1, 4, 8];
  if (!desks.every((k) => Number.isInteger(k) && k >= 1 && k <= 64))
    throw new Error(`PLUGBOARD_BENCH_M18_DESKS=${desksRaw}: give numbers of desks 1–64, e.g. 1,4,8.`);
  return {
    desks,
    idleSeconds: numberFrom('PLUGBOARD_BENCH_M18_IDLE_SECONDS', quick ? 15 : 30, 5),
    switches: numberFrom('PLUGBOARD_BENCH_M18_SWITCHES', quick ? 3 : 5, 1),
    changes: numberFrom('PLUGBOARD_BENCH_M18_CHANGES', quick ? 3 : 5, 1),
    scaleSeconds: numberFrom('PLUGBOARD_BENCH_M18_SCALE_SECONDS', quick ? 30 : 60, 10),
    clients: numberFrom('PLUGBOARD_BENCH_M18_CLIENTS', 50, 0),
  };
}
