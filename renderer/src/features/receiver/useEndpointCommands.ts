/** What the endpoint editor sends: create, update, start over and delete, with the catalog and the route following. */
import { useState } from 'react';
import { nextStepWords, type ReceiverEndpoint, type ResponseScriptInput } from '../../../../main/contract/receiver/receiver';
import { api } from '../../api/instance';
import { useCatalog } from '../../stores/catalog';
import { useRouter } from '../../stores/router';
import { useSecrets } from '../../stores/secrets';
import { useToasts } from '../../stores/toasts';

/** Puts an endpoint as the server answered it into the catalog (created or updated). */
function remember(endpoint: ReceiverEndpoint): void {
  useCatalog.setState((s) => ({ receivers: [...s.receivers.filter((r) => r.name !== endpoint.name), endpoint].sort((a, b) => a.name.localeCompare(b.name)) }));
  useSecrets.getState().forget('receiver', endpoint.name);
}

/**
 * What a save did to the script's place, as the server decided it: a changed script starts at its first step, an
 * unchanged one (a save with no edit, or of the secret alone) keeps its place.
 */
export function savedWords(before: ReceiverEndpoint, after: ReceiverEndpoint): string {
  const next = nextStepWords(after.script, after.answered);
  if (JSON.stringify(before.script) !== JSON.stringify(after.script)) return `The new script starts at its first step: the next request gets ${next}.`;
  return `Script unchanged, so it keeps its place: the next request gets ${next} (Start over goes back to the first step).`;
}

export interface EndpointSettings {
  /** A new endpoint's name (ignored for an existing one). */
  name: string;
  script: ResponseScriptInput;
  refuseInvalidSignatures: boolean;
  /** The secret to set (null: none); undefined: leave it as it is. */
  secret: string | null | undefined;
}

/** The command in progress (its button spins, the others wait) and the commands; `endpoint` null: a new one. */
export function useEndpointCommands(endpoint: ReceiverEndpoint | null, onDone?: () => void) {
  const [busy, setBusy] = useState<'save' | 'rewind' | 'delete' | null>(null);
  const navigate = useRouter((s) => s.navigate);

  const save = async ({ name, script, refuseInvalidSignatures, secret }: EndpointSettings) => {
    setBusy('save');
    try {
      if (endpoint) {
        const result = await api().call('updateReceiver', { name: endpoint.name, patch: { script, refuseInvalidSignatures, ...(secret !== undefined ? { secret } : {}) } });
        if (!result.ok) return;
        remember(result.value);
        useToasts.getState().push({ tone: 'success', title: `${endpoint.name} saved`, message: savedWords(endpoint, result.value) });
      } else {
        const result = await api().call('createReceiver', { name, secret: secret ?? null, refuseInvalidSignatures, script });
        if (!result.ok) return;
        remember(result.value);
        navigate({ view: 'receiver', receiver: result.value.name });
        onDone?.();
      }
    } finally {
      setBusy(null);
    }
  };

  const rewind = async () => {
    if (!endpoint) return;
    setBusy('rewind');
    const result = await api().call('updateReceiver', { name: endpoint.name, patch: { rewind: true } });
    setBusy(null);
    if (result.ok) remember(result.value);
  };

  const remove = async () => {
    if (!endpoint) return;
    setBusy('delete');
    const result = await api().call('deleteReceiver', { name: endpoint.name });
    setBusy(null);
    if (!result.ok) return;
    useCatalog.setState((s) => ({ receivers: s.receivers.filter((r) => r.name !== endpoint.name) }));
    useToasts.getState().push({ tone: 'info', title: `${endpoint.name} deleted`, message: 'Its captured requests are kept until you clear them.' });
    navigate({ view: 'receiver', receiver: null });
  };

  return { busy, save, rewind, remove };
}
