import { withModifier } from '../../lib/platform';

/** Every keyboard shortcut, as Settings lists it (keys, what it does), with this platform's modifier. */
export const SHORTCUTS: readonly (readonly [string, string])[] = [
  [withModifier('K'), 'Open the command palette: every screen and action'],
  ['↓ / j', 'Next message (Live)'],
  ['↑ / k', 'Previous message (Live)'],
  ['Enter', 'Open the selected message (Live)'],
  ['r', 'Retry the open message now (Live)'],
  ['Esc', 'Close the message, the attempt or a dialog'],
  [withModifier('Enter'), 'Send (Compose)'],
];
