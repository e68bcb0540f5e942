/**
 * One entry per navigation link: each screen is its own chunk, loaded when first opened, so the first
 * paint only pays for the frame and the screen it shows. A new screen adds one line here.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { View } from '../stores/router';

type Screen = LazyExoticComponent<ComponentType>;

export const SCREENS: Record<View, Screen> = {
  live: lazy(async () => ({ default: (await import('../features/live/LiveView')).LiveView })),
  compose: lazy(async () => ({ default: (await import('../features/compose/ComposeView')).ComposeView })),
  destinations: lazy(async () => ({ default: (await import('../features/destinations/DestinationsView')).DestinationsView })),
  sources: lazy(async () => ({ default: (await import('../features/sources/SourcesView')).SourcesView })),
  receiver: lazy(async () => ({ default: (await import('../features/receiver/ReceiverView')).ReceiverView })),
  history: lazy(async () => ({ default: (await import('../features/history/HistoryView')).HistoryView })),
  troubleshoot: lazy(async () => ({ default: (await import('../features/troubleshoot/TroubleshootView')).TroubleshootView })),
  check: lazy(async () => ({ default: (await import('../features/check/CheckView')).CheckView })),
  audiences: lazy(async () => ({ default: (await import('../features/audiences/AudiencesView')).AudiencesView })),
  settings: lazy(async () => ({ default: (await import('../features/settings/SettingsView')).SettingsView })),
};
