/**
 * The mock receiver's named endpoints: their rows and the in-memory copies every request reads (its script
 * position moves as it answers), created, changed and deleted by the commands, or matched by name from a
 * config file's `receivers`.
 */
import type { CommandParsed } from '../contract/dispatch.js';
import type { EventOf } from '../contract/events.js';
import type { Page } from '../contract/messages.js';
import { REFUSE_NEEDS_SECRET, receiversConfigSchema, type ReceiverEndpoint } from '../contract/receiver/receiver.js';
import { err, HookbenchError, ok, type ApiError, type Result } from '../contract/result.js';
import { issuesToErrors, withOthers } from '../contract/schemas.js';
import type { ReceiverAddresses } from './listeners.js';
import type { ReceiverStore, StoredReceiver } from './receiverStore.js';
import { isMasked, maskedValueError } from '../domain/secrets.js';

export interface ReceiverEndpointsOptions {
  store: ReceiverStore;
  /** Engine time, for the endpoints' timestamps. */
  clock: { now(): number };
  emit: (event: EventOf<'catalogChanged'>) => void;
  /** The listeners' base URLs now: an endpoint's URLs are shown under them. */
  addresses: () => ReceiverAddresses;
  /** The destinations whose webhooks name an endpoint (`receiver:<name>`, `receiver+tls:<name>`). */
  destinationsUsing: (name: string) => string[];
}

export class ReceiverEndpoints {
  private endpoints = new Map<string, StoredReceiver>();

  constructor(private readonly options: ReceiverEndpointsOptions) {
    for (const r of options.store.listReceivers()) this.endpoints.set(r.name, r);
  }

  /**
   * Reads the endpoints again after a rolled-back transaction (a config file refused after its receivers were
   * applied: all of it or nothing, docs/behaviour.md §10). An endpoint whose script did not change keeps its
   * position in it.
   */
  reload(): void {
    const fresh = new Map<string, StoredReceiver>();
    for (const r of this.options.store.listReceivers()) {
      const old = this.endpoints.get(r.name);
      if (old && JSON.stringify(old.script) === JSON.stringify(r.script)) r.answered = Math.max(r.answered, old.answered);
      fresh.set(r.name, r);
    }
    this.endpoints = fresh;
  }

  /** An endpoint by name, as it is now (what a request to it reads). */
  get(name: string): StoredReceiver | undefined {
    return this.endpoints.get(name);
  }

  /** Every endpoint, by name. */
  sorted(): StoredReceiver[] {
    return [...this.endpoints.values()].sort((a, b) => a.name.localeCompare(b.name));
  }

  listReceivers(): Result<Page<ReceiverEndpoint>> {
    return ok({ items: this.sorted().map((r) => this.view(r)), nextCursor: null });
  }

  /** Every endpoint's secret (exports redact them). */
  allSecrets(): string[] {
    return [...this.endpoints.values()].flatMap((r) => (r.secret === null ? [] : [r.secret]));
  }

  /** The receiver's secret in clear (revealSecret). */
  receiverSecret(name: string): Result<string | null> {
    const r = this.find(name);
    return r.ok ? ok(r.value.secret) : r;
  }

  getReceiver(input: CommandParsed<'getReceiver'>): Result<ReceiverEndpoint> {
    const r = this.find(input.name);
    return r.ok ? ok(this.view(r.value)) : r;
  }

  createReceiver(v: CommandParsed<'createReceiver'>): Result<ReceiverEndpoint> {
    if (this.endpoints.has(v.name)) return err({ code: 'conflict', field: 'name', message: `name: a receiver named "${v.name}" already exists`, value: v.name });
    // Nothing stored to restore a mask from: it would be the endpoint's secret, and every signature invalid.
    if (v.secret !== null && isMasked(v.secret)) return err(maskedValueError('secret'));
    const now = this.options.clock.now();
    const r: StoredReceiver = { name: v.name, secret: v.secret, refuseInvalidSignatures: v.refuseInvalidSignatures, script: v.script, answered: 0, createdAt: now, updatedAt: now };
    this.options.store.insertReceiver(r);
    this.endpoints.set(r.name, r);
    this.options.emit({ type: 'catalogChanged', catalog: 'receivers' });
    return ok(this.view(r));
  }

  /**
   * A new script starts at its first step (so does `rewind: true`); a rename carries the captures along, and is
   * refused while a destination names the endpoint (it would be left pointing at no endpoint).
   */
  updateReceiver(input: CommandParsed<'updateReceiver'>): Result<ReceiverEndpoint> {
    const current = this.find(input.name);
    if (!current.ok) return current;
    const p = input.patch;
    const old = current.value;
    if (p.name !== undefined && p.name !== old.name && this.endpoints.has(p.name)) {
      return err({ code: 'conflict', field: 'patch.name', message: `patch.name: a receiver named "${p.name}" already exists`, value: p.name });
    }
    if (p.name !== undefined && p.name !== old.name) {
      // Their webhooks say receiver:<old name>: renamed under them, their next attempts would fail with no such receiver.
      const users = this.options.destinationsUsing(old.name);
      if (users.length) {
        const which = users.length === 1 ? `the destination ${JSON.stringify(users[0])} points` : `the destinations ${users.map((u) => JSON.stringify(u)).join(', ')} point`;
        return err({
          code: 'conflict',
          field: 'patch.name',
          message: `patch.name: "${old.name}" cannot be renamed to "${p.name}" while ${which} at it (receiver:${old.name}): create "${p.name}" as a new endpoint and point ${users.length === 1 ? 'its webhook' : 'their webhooks'} at receiver:${p.name}, or rename it once no destination uses it`,
          value: p.name,
        });
      }
    }
    // The typed API's form path restores a mask of the stored secret first (sharedSecrets.ts); one left here has no secret behind it.
    if (typeof p.secret === 'string' && isMasked(p.secret)) return err(maskedValueError('patch.secret'));
    const scriptChanged = p.script !== undefined && JSON.stringify(p.script) !== JSON.stringify(old.script);
    const secret = p.secret !== undefined ? p.secret : old.secret;
    const refuseInvalidSignatures = p.refuseInvalidSignatures ?? old.refuseInvalidSignatures;
    if (refuseInvalidSignatures && secret === null) {
      // Name the field the patch changed: turning the option on, or taking the secret away from under it.
      const field = p.refuseInvalidSignatures ? 'patch.refuseInvalidSignatures' : 'patch.secret';
      const message =
        field === 'patch.secret'
          ? `${field}: "${old.name}" refuses invalid signatures, so it cannot be left without a secret: set refuseInvalidSignatures to false in the same patch`
          : `${field}: ${REFUSE_NEEDS_SECRET}`;
      return err({ code: 'invalid_input', field, message });
    }
    const next: StoredReceiver = {
      name: p.name ?? old.name,
      secret,
      refuseInvalidSignatures,
      script: p.script ?? old.script,
      answered: scriptChanged || p.rewind ? 0 : old.answered,
      createdAt: old.createdAt,
      updatedAt: this.options.clock.now(),
    };
    this.options.store.updateReceiver(old.name, next);
    this.endpoints.delete(old.name);
    this.endpoints.set(next.name, next);
    this.options.emit({ type: 'catalogChanged', catalog: 'receivers' });
    return ok(this.view(next));
  }

  /** Removes the endpoint; its captures are kept (clearCaptures removes them). */
  deleteReceiver(input: CommandParsed<'deleteReceiver'>): Result<{ name: string }> {
    const current = this.find(input.name);
    if (!current.ok) return current;
    this.options.store.deleteReceiver(current.value.name);
    this.endpoints.delete(current.value.name);
    this.options.emit({ type: 'catalogChanged', catalog: 'receivers' });
    return ok({ name: current.value.name });
  }

  /**
   * The `receivers` of a config file (docs/behaviour.md §10): matched by name, created or updated, others kept.
   * Everything is validated before anything changes; errors name the path (`receivers[1].script.status`), every one at once.
   */
  applyConfig(receivers: unknown, prefix: readonly PropertyKey[] = ['receivers']): Result<{ created: string[]; updated: string[]; unchanged: string[] }> {
    const parsed = receiversConfigSchema.safeParse(receivers);
    // Every problem at once (docs/usage.md): a name given twice beside the others, each under its entry.
    const problems: { index: number; error: ApiError }[] = [];
    if (!parsed.success) {
      for (const error of issuesToErrors(parsed.error.issues, prefix, receiversConfigSchema)) problems.push({ index: entryIndex(error.field, prefix), error });
    }
    const seen = new Map<string, number>();
    for (const [i, r] of (Array.isArray(receivers) ? (receivers as unknown[]) : []).entries()) {
      const name = typeof r === 'object' && r !== null ? (r as { name?: unknown }).name : undefined;
      if (typeof name !== 'string') continue;
      const first = seen.get(name);
      if (first === undefined) {
        seen.set(name, i);
        continue;
      }
      const field = `${pathOf(prefix)}[${i}].name`;
      problems.push({ index: i, error: { code: 'invalid_config', field, message: `${field}: "${name}" is given twice (first at index ${first})`, value: name } });
    }
    if (problems.length || !parsed.success) {
      const [first, ...others] = problems.sort((a, b) => a.index - b.index).map((p) => p.error);
      return err(first ? withOthers(first, others) : { code: 'invalid_config', field: pathOf(prefix), message: `${pathOf(prefix)}: invalid` });
    }
    const result = { created: [] as string[], updated: [] as string[], unchanged: [] as string[] };
    this.options.store.transaction(() => {
      for (const r of parsed.data) {
        const old = this.endpoints.get(r.name);
        if (!old) {
          const created = this.createReceiver(r);
          if (!created.ok) throw new HookbenchError(created.error); // validated above: cannot happen
          result.created.push(r.name);
        } else if (old.secret === r.secret && old.refuseInvalidSignatures === r.refuseInvalidSignatures && JSON.stringify(old.script) === JSON.stringify(r.script)) {
          result.unchanged.push(r.name);
        } else {
          const updated = this.updateReceiver({ name: r.name, patch: { secret: r.secret, refuseInvalidSignatures: r.refuseInvalidSignatures, script: r.script } });
          if (!updated.ok) throw new HookbenchError(updated.error);
          result.updated.push(r.name);
        }
      }
    });
    return ok(result);
  }

  find(name: string): Result<StoredReceiver> {
    const r = this.endpoints.get(name);
    if (r) return ok(r);
    const known = [...this.endpoints.keys()].sort();
    return err({
      code: 'not_found',
      field: 'name',
      message: `no receiver named "${name}" (${known.length ? `known: ${known.join(', ')}` : 'none is defined'})`,
      value: name,
    });
  }

  view(r: StoredReceiver): ReceiverEndpoint {
    const path = `/r/${encodeURIComponent(r.name)}`;
    const { url, tlsUrl } = this.options.addresses();
    return {
      name: r.name,
      secret: r.secret,
      refuseInvalidSignatures: r.refuseInvalidSignatures,
      script: r.script,
      answered: r.answered,
      url: url === null ? null : `${url}${path}`,
      tlsUrl: tlsUrl === null ? null : `${tlsUrl}${path}`,
      createdAt: r.createdAt,
      updatedAt: r.updatedAt,
    };
  }
}

/** The entry a problem's field is under (`receivers[3].name` → 3), to list problems in the file's order. */
function entryIndex(field: string | undefined, prefix: readonly PropertyKey[]): number {
  const m = field?.slice(pathOf(prefix).length).match(/^\[(\d+)\]/);
  return m ? Number(m[1]) : -1;
}

function pathOf(prefix: readonly PropertyKey[]): string {
  return prefix.map((k, i) => (typeof k === 'number' ? `[${k}]` : i === 0 ? String(k) : `.${String(k)}`)).join('');
}
