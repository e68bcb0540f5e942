import { withModifier } from '../../lib/platform';

/** Every keyboard shortcut, as Settings lists it (keys, what it does), with this platform's modifier. */
export const SHORTCUTS: readonly (readonly [string, string])[] = [
  [withModifier('K'), 'Open the command palette: every screen and action'],
  ['↓ / j', 'Next message (Live, History)'],
  ['↑ / k', 'Previous message (Live, History)'],
  ['Enter', 'Open the selected message (Live, History)'],
  ['x', 'Select or unselect the message at the cursor (History)'],
  ['Shift + click', 'Select every message between the last clicked and this one (History)'],
  ['r', 'Retry the open message now (Live)'],
  ['Esc', 'Close the message, the attempt or a dialog'],
  [withModifier('Enter'), 'Send (Compose)'],
];
