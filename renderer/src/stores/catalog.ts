/** Destinations, sources and receivers: small lists, loaded whole and reloaded after a resync. */
import { create } from 'zustand';
import type { Destination } from '../../../main/contract/destinations';
import type { Source } from '../../../main/contract/sources';
import type { ReceiverEndpoint } from '../../../main/contract/receiver/receiver';
import { api } from '../api/instance';

interface CatalogState {
  destinations: Destination[];
  /**
   * Every destination, the ones hookbench send and hookbench check keep for themselves too: a message's
   * detail looks its destination up here, or a 'hookbench send' delivery would read as deleted and never held.
   */
  allDestinations: Destination[];
  sources: Source[];
  receivers: ReceiverEndpoint[];
  loaded: boolean;
  load(): Promise<void>;
}

export const useCatalog = create<CatalogState>((set) => ({
  destinations: [],
  allDestinations: [],
  sources: [],
  receivers: [],
  loaded: false,
  async load() {
    const [destinations, allDestinations, sources, receivers] = await Promise.all([
      api().call('listDestinations', {}),
      api().call('listDestinations', { owner: 'all' }),
      api().call('listSources', {}),
      api().call('listReceivers', {}),
    ]);
    set((s) => ({
      destinations: destinations.ok ? destinations.value.items : s.destinations,
      allDestinations: allDestinations.ok ? allDestinations.value.items : s.allDestinations,
      sources: sources.ok ? sources.value.items : s.sources,
      receivers: receivers.ok ? receivers.value.items : s.receivers,
      loaded: true,
    }));
  },
}));

export function destinationName(destinations: Destination[], id: string): string {
  return destinations.find((d) => d.id === id)?.name ?? id;
}

export function sourceName(sources: Source[], id: string | null): string {
  if (id === null) return '';
  return sources.find((s) => s.id === id)?.name ?? id;
}
