import { useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { DestinationEdit } from './DestinationEdit';
import { DestinationList } from './DestinationList';
import { DestinationSetup } from './DestinationSetup';

/** `#/destinations` (the list), `#/destinations/new` (guided setup), `#/destinations/<id>` (edit). */
export function DestinationsView() {
  const sub = useRouter((s) => s.route.sub);
  const destinations = useCatalog((s) => s.destinations);
  const loaded = useCatalog((s) => s.loaded);
  const [first] = sub;
  if (first === 'new') return <DestinationSetup />;
  if (first !== undefined) {
    const destination = destinations.find((d) => d.id === first || d.name === first);
    if (destination) return <DestinationEdit key={destination.id} destination={destination} />;
    if (!loaded) return <p className="p-6 text-sm text-muted" role="status">Loading…</p>;
    return (
      <p className="p-6 text-sm text-err" role="alert">
        No destination is named or has the id “{first}”. <a className="text-accent underline" href="#/destinations">All destinations</a>
      </p>
    );
  }
  return <DestinationList />;
}
