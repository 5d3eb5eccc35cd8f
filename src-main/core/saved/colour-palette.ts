/** Tab colours that stay distinguishable next to each other, in both themes. */
export const CONTROLLER_PALETTE = [
  '#3b82f6',
  '#ef4444',
  '#22c55e',
  '#f59e0b',
  '#a855f7',
  '#14b8a6',
  '#ec4899',
  '#f97316',
  '#6366f1',
  '#84cc16',
] as const;

/** The first palette colour no saved controller uses yet; once all are taken, keep cycling. */
export function pickDefaultColour(used: readonly string[]): string {
  const taken = new Set(used.map((colour) => colour.toLowerCase()));
  const free = CONTROLLER_PALETTE.find((colour) => !taken.has(colour));
  return free ?? CONTROLLER_PALETTE[used.length % CONTROLLER_PALETTE.length]!;
}
