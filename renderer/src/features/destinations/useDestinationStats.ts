/**
 * listDestinationStats while a Destinations screen is open: loaded at once, then again (at most once a
 * second) after deliveries change, as pushed events say.
 */
import { useEffect, useState } from 'react';
import type { DestinationStats } from '../../../../main/contract/models';
import { api } from '../../api/instance';

const REFRESH_MS = 1000;

export function useDestinationStats(): Map<string, DestinationStats> | null {
  const [stats, setStats] = useState<Map<string, DestinationStats> | null>(null);
  useEffect(() => {
    let alive = true;
    let timer: ReturnType<typeof setTimeout> | null = null;
    const load = async () => {
      timer = null;
      const result = await api().call('listDestinationStats', {}, { quiet: true });
      if (alive && result.ok) setStats(new Map(result.value.items.map((s) => [s.destinationId, s])));
    };
    void load();
    const off = api().subscribe((batch) => {
      if (timer === null && batch.events.some((e) => e.type === 'deliveryUpdated' || e.type === 'messageAccepted')) timer = setTimeout(() => void load(), REFRESH_MS);
    });
    return () => {
      alive = false;
      off();
      if (timer) clearTimeout(timer);
    };
  }, []);
  return stats;
}
