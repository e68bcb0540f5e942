import { sourceName, useCatalog } from '../../stores/catalog';

/** Whether a source's identify calls would go nowhere: no enabled destination is connected to it. */
export function useNowhere(sourceId: string): boolean {
  return useCatalog((s) => s.loaded && sourceId !== '' && !s.destinations.some((d) => d.enabled && d.sourceIds.includes(sourceId)));
}

/**
 * Said where identify calls are about to be sent for a source with no enabled destination: they are recorded
 * as sent (the members count as told) while they go nowhere, and no later sync sends them again.
 */
export function NowhereNote({ sourceId, when }: { sourceId: string; when: 'sync' | 'create' }) {
  const sources = useCatalog((s) => s.sources);
  const nowhere = useNowhere(sourceId);
  if (!nowhere) return null;
  const name = sourceName(sources, sourceId) || sourceId;
  return (
    <p role="note" className="text-xs text-warn">
      No enabled destination is connected to source {name}: {when === 'sync' ? 'a sync would record these changes as sent' : 'creating it would count every user as told'}, but the identify calls would go nowhere, and no later sync sends them again. Enable or connect a destination first.
    </p>
  );
}
