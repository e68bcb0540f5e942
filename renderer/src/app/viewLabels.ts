import type { View } from '../stores/router';

/** Each screen's name: the navigation's, the palette's, the page title's and the main landmark's. */
export const VIEW_LABELS: Record<View, string> = {
  live: 'Live',
  compose: 'Compose',
  destinations: 'Destinations',
  sources: 'Sources',
  receiver: 'Receiver',
  history: 'History',
  troubleshoot: 'Troubleshoot',
  check: 'Check',
  audiences: 'Audiences',
  settings: 'Settings',
};

/** The window's title for a screen: "History · Hookbench" (a tab or the task switcher tells screens apart). */
export function titleOf(view: View): string {
  return `${VIEW_LABELS[view]} · Hookbench`;
}
