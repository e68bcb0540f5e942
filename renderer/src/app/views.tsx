/**
 * One entry per navigation link: each screen is its own chunk, loaded when first opened, so the first
 * paint only pays for the frame and the screen it shows (which main.tsx loads before it renders, while the
 * page's first requests are on their way). Live, the screen most pages open on, is part of the app's own
 * chunk: its code then comes in the same few requests as the frame's. A new screen adds one line here.
 */
import { LiveView } from '../features/live/LiveView';
import type { View } from '../stores/router';
import { alreadyLoaded, preloadable, type Preloadable } from '../lib/preloadable';

export const SCREENS: Record<View, Preloadable<object>> = {
  live: alreadyLoaded(LiveView),
  compose: preloadable(async () => (await import('../features/compose/ComposeView')).ComposeView),
  destinations: preloadable(async () => (await import('../features/destinations/DestinationsView')).DestinationsView),
  sources: preloadable(async () => (await import('../features/sources/SourcesView')).SourcesView),
  receiver: preloadable(async () => (await import('../features/receiver/ReceiverView')).ReceiverView),
  history: preloadable(async () => (await import('../features/history/HistoryView')).HistoryView),
  troubleshoot: preloadable(async () => (await import('../features/troubleshoot/TroubleshootView')).TroubleshootView),
  check: preloadable(async () => (await import('../features/check/CheckView')).CheckView),
  audiences: preloadable(async () => (await import('../features/audiences/AudiencesView')).AudiencesView),
  settings: preloadable(async () => (await import('../features/settings/SettingsView')).SettingsView),
};
