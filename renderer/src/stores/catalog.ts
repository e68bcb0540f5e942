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
  /** allDestinations has been read: until then a destination missing from it is not known to be deleted. */
  allLoaded: boolean;
  sources: Source[];
  receivers: ReceiverEndpoint[];
  loaded: boolean;
  load(): Promise<void>;
}

export const useCatalog = create<CatalogState>((set) => ({
  destinations: [],
  allDestinations: [],
  allLoaded: false,
  sources: [],
  receivers: [],
  loaded: false,
  async load() {
    // Asked alongside, but not waited for by `loaded`: the first screen's lists come from the page's first requests.
    const every = api().call('listDestinations', { owner: 'all' });
    const [destinations, sources, receivers] = await Promise.all([api().call('listDestinations', {}), api().call('listSources', {}), api().call('listReceivers', {})]);
    set((s) => ({
      destinations: destinations.ok ? destinations.value.items : s.destinations,
      sources: sources.ok ? sources.value.items : s.sources,
      receivers: receivers.ok ? receivers.value.items : s.receivers,
      loaded: true,
    }));
    const all = await every;
    set((s) => ({ allDestinations: all.ok ? all.value.items : s.allDestinations, allLoaded: s.allLoaded || all.ok }));
  },
}));

/** A destination by id, the user's first, else one hookbench send or check keeps (a message's detail shows either). */
export function findDestination(s: Pick<CatalogState, 'destinations' | 'allDestinations'>, id: string): Destination | undefined {
  return s.destinations.find((d) => d.id === id) ?? s.allDestinations.find((d) => d.id === id);
}

export function destinationName(destinations: Destination[], id: string): string {
  return destinations.find((d) => d.id === id)?.name ?? id;
}

export function sourceName(sources: Source[], id: string | null): string {
  if (id === null) return '';
  return sources.find((s) => s.id === id)?.name ?? id;
}
