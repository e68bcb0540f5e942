/** What the Destinations screens do to a destination: toggle it, send it a test event, delete it. */
import type { Destination } from '../../../../main/contract/destinations';
import { api } from '../../api/instance';
import { plural } from '../../lib/format';
import { useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { useSecrets } from '../../stores/secrets';
import { useToasts } from '../../stores/toasts';
import { testEventName } from './model';

/** Puts a destination as the server answered it into the catalog. */
export function remember(destination: Destination): void {
  useCatalog.setState((s) => ({ destinations: [...s.destinations.filter((d) => d.id !== destination.id), destination].sort((a, b) => a.name.localeCompare(b.name)) }));
  useSecrets.getState().forget('destination', destination.id);
}

export async function setEnabled(destination: Destination, enabled: boolean): Promise<void> {
  const result = await api().call('updateDestination', { id: destination.id, patch: { enabled } });
  if (result.ok) remember(result.value);
}

/**
 * One track call straight to this destination (as the composer sends it), then Live opens it with its
 * outcome. Its event is one the destination's filters let through (testEventName): `Test Event`, or the
 * first event of its allow list, said plainly, since the receiver gets that name.
 */
export async function sendTestEvent(destination: Destination): Promise<void> {
  const { event, filteredAnyway } = testEventName(destination);
  const result = await api().call('sendMessage', {
    type: 'track',
    destinations: [destination.id],
    call: { userId: 'test-user', event, properties: { sentBy: 'Hookbench', test: true, destination: destination.name } },
  });
  if (!result.ok) return;
  // Live first: what is said here belongs to the screen that shows the outcome (a notice shows only on its screen).
  useRouter.getState().navigate({ view: 'live', messageId: result.value.message.id });
  const toasts = useToasts.getState();
  if (filteredAnyway) {
    toasts.push({ tone: 'error', title: 'Filtered: no event gets through', message: `Every event the allow list of ${destination.name} names is also blocked, so no track call reaches it. Change its event filters.` });
  } else if (event !== 'Test Event') {
    toasts.push({ tone: 'info', title: `Sent as “${event}”`, message: `${destination.name} only lets the events of its allow list through, so the test event uses the first of them (properties say test: true).` });
  }
  if (destination.webhooks.length === 0) {
    toasts.push({ tone: 'info', title: 'Held: the destination has no webhook URL', message: `${destination.name} has no webhook URL, so its test event waits until you add one and turn it on.` });
  } else if (!destination.enabled) {
    toasts.push({ tone: 'info', title: 'Held: the destination is off', message: `${destination.name} is disabled, so its test event waits until you turn it on.` });
  }
}

export async function deleteDestination(destination: Destination): Promise<boolean> {
  const result = await api().call('deleteDestination', { id: destination.id });
  if (!result.ok) return false;
  useCatalog.setState((s) => ({ destinations: s.destinations.filter((d) => d.id !== destination.id) }));
  useToasts.getState().push({
    tone: 'success',
    title: `${destination.name} deleted`,
    message: result.value.cancelledDeliveries ? `${plural(result.value.cancelledDeliveries, 'pending delivery', 'pending deliveries')} cancelled (destination deleted).` : 'It had no pending deliveries.',
  });
  return true;
}
