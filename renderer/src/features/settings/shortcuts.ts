/** Every keyboard shortcut, as Settings lists it (keys, what it does). */
export const SHORTCUTS: readonly (readonly [string, string])[] = [
  ['Ctrl+K / ⌘K', 'Open the command palette: every screen and action'],
  ['↓ / j', 'Next message (Live)'],
  ['↑ / k', 'Previous message (Live)'],
  ['Enter', 'Open the selected message (Live)'],
  ['r', 'Retry the open message now (Live)'],
  ['Esc', 'Close the message, the attempt or a dialog'],
  ['Ctrl+Enter / ⌘Enter', 'Send (Compose)'],
];
