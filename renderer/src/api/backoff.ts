/** Reconnect delays: 0.5 s doubling to 10 s, ±20 % so that many windows do not reconnect in step. */
export function reconnectDelay(failures: number, random: () => number = Math.random): number {
  const base = Math.min(10_000, 500 * 2 ** Math.max(0, failures));
  return Math.round(base * (0.8 + 0.4 * random()));
}
