/**
 * The first-run shortcut: "Set up a destination to the mock receiver and send a test event" in one click.
 * A receiver endpoint (one that checks signatures, else a new one), a destination to it with a generated
 * secret and the first source (made if there is none), one test track through that source; then Live
 * shows it. Every step is a typed command; the first error stops it (and is shown as a notice).
 */
import type { Destination } from '../../../../main/contract/destinations';
import type { ReceiverEndpoint } from '../../../../main/contract/receiver/receiver';
import { api } from '../../api/instance';
import { generateSecret } from '../../lib/randomSecret';
import { useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { useToasts } from '../../stores/toasts';
import { freeName } from './model';

export const FIRST_RUN_LABEL = 'Set up a destination to the mock receiver and send a test event';

export async function firstRun(): Promise<boolean> {
  const client = api();
  await useCatalog.getState().load();
  const { sources, receivers, destinations } = useCatalog.getState();

  // A receiver that checks signatures, with its secret, so the capture shows "signature valid".
  let endpoint: ReceiverEndpoint | null = null;
  let secret: string | null = null;
  for (const r of receivers) {
    if (r.secret === null) continue;
    const revealed = await client.call('revealSecret', { kind: 'receiver', id: r.name });
    if (revealed.ok && revealed.value.secret) {
      endpoint = r;
      secret = revealed.value.secret;
      break;
    }
  }
  if (!endpoint) {
    secret = generateSecret();
    const created = await client.call('createReceiver', { name: freeName('inbox', receivers.map((r) => r.name)).replace(' ', '-'), secret, script: 200 });
    if (!created.ok) return false;
    endpoint = created.value;
  }

  let source = sources[0] ?? null;
  if (!source) {
    const created = await client.call('createSource', { name: 'my-app', kind: 'server' });
    if (!created.ok) return false;
    source = created.value;
  }

  const destination = await client.call('createDestination', {
    name: freeName('Mock receiver', destinations.map((d: Destination) => d.name)),
    enabled: true,
    sources: [source.id],
    sharedSecret: secret,
    webhooks: [{ url: `receiver:${endpoint.name}`, headers: {} }],
  });
  if (!destination.ok) return false;
  await useCatalog.getState().load();

  const sent = await client.call('sendMessage', {
    type: 'track',
    source: source.id,
    call: { userId: 'first-run-user', event: 'Test Event', properties: { sentBy: 'Hookbench first run', destination: destination.value.name } },
  });
  if (!sent.ok) return false;
  useToasts.getState().push({
    tone: 'success',
    title: `${destination.value.name} is set up`,
    message: `A test event from ${source.name} is on its way to receiver:${endpoint.name}, signed with a new shared secret.`,
  });
  useRouter.getState().navigate({ view: 'live', messageId: sent.value.message.id });
  return true;
}
