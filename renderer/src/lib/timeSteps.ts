/** The time-travel steps, as the top bar's buttons and the command palette offer them. */
import type { TimeAction } from '../stores/engine';

export const TIME_STEPS: readonly { label: string; ms: number; action: TimeAction }[] = [
  { label: '+5 s', ms: 5_000, action: '+5s' },
  { label: '+1 min', ms: 60_000, action: '+1min' },
  { label: '+1 h', ms: 3_600_000, action: '+1h' },
  { label: '+4 h', ms: 4 * 3_600_000, action: '+4h' },
];
