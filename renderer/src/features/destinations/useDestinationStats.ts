/**
 * listDestinationStats while a Destinations screen is open: loaded at once, then again (at most once a
 * second) after deliveries change, as pushed events say.
 */
import { useState } from 'react';
import type { DestinationStats } from '../../../../main/contract/destinations';
import { api } from '../../api/instance';
import { useRefresh } from '../../api/useRefresh';

const REFRESH_MS = 1000;

export function useDestinationStats(): Map<string, DestinationStats> | null {
  const [stats, setStats] = useState<Map<string, DestinationStats> | null>(null);
  useRefresh(
    'destination-stats',
    async (current) => {
      const result = await api().call('listDestinationStats', {}, { quiet: true });
      if (current() && result.ok) setStats(new Map(result.value.items.map((s) => [s.destinationId, s])));
    },
    { afterEventsMs: REFRESH_MS, events: (e) => e.type === 'deliveryUpdated' || e.type === 'messageAccepted' },
  );
  return stats;
}
