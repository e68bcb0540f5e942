/**
 * Secrets in clear, fetched one at a time with revealSecret when the user asks (an eye button, "show
 * signature", a signature to check). Kept in memory for this tab only; a resync forgets them, and so does a
 * change of the secret made here.
 */
import { create } from 'zustand';
import type { SecretKind } from '../../../main/contract/destinations';
import { api } from '../api/instance';

export type SecretKey = `${SecretKind}:${string}`;

export const secretKey = (kind: SecretKind, id: string): SecretKey => `${kind}:${id}`;

interface SecretsState {
  /** Clear secrets by key; null: there is no secret. */
  values: Partial<Record<SecretKey, string | null>>;
  loading: Partial<Record<SecretKey, boolean>>;
  /** The secret in clear (fetched once); undefined when it could not be fetched. */
  reveal(kind: SecretKind, id: string): Promise<string | null | undefined>;
  forget(kind?: SecretKind, id?: string): void;
}

/** One request per secret at a time, however many components ask. */
const inFlight = new Map<SecretKey, Promise<string | null | undefined>>();

export const useSecrets = create<SecretsState>((set, get) => ({
  values: {},
  loading: {},
  reveal(kind, id) {
    const key = secretKey(kind, id);
    const known = get().values[key];
    if (known !== undefined) return Promise.resolve(known);
    const pending = inFlight.get(key);
    if (pending) return pending;
    set((s) => ({ loading: { ...s.loading, [key]: true } }));
    const request = api()
      .call('revealSecret', { kind, id })
      .then((result) => {
        set((s) => ({ loading: { ...s.loading, [key]: false }, ...(result.ok ? { values: { ...s.values, [key]: result.value.secret } } : {}) }));
        return result.ok ? result.value.secret : undefined;
      })
      .finally(() => inFlight.delete(key));
    inFlight.set(key, request);
    return request;
  },
  forget(kind, id) {
    if (kind === undefined || id === undefined) return set({ values: {} });
    const key = secretKey(kind, id);
    set((s) => {
      const { [key]: _gone, ...values } = s.values;
      return { values };
    });
  },
}));
