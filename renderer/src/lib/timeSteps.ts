/** The time-travel steps, as the top bar's buttons and the command palette offer them. */
/** The top bar's time actions: each step, Next retry, a ghost marker's retry, Reset and Cancel. */
export type TimeAction = '+5s' | '+1min' | '+1h' | '+4h' | 'next' | 'to-retry' | 'reset' | 'cancel';

export const TIME_STEPS: readonly { label: string; ms: number; action: TimeAction }[] = [
  { label: '+5 s', ms: 5_000, action: '+5s' },
  { label: '+1 min', ms: 60_000, action: '+1min' },
  { label: '+1 h', ms: 3_600_000, action: '+1h' },
  { label: '+4 h', ms: 4 * 3_600_000, action: '+4h' },
];
