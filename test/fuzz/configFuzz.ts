/**
 * Property-based fuzzing of the config file (docs/behaviour.md §10, README "Config file"): sources,
 * destinations and receivers applied the way `hookbench serve --config` applies them (applyConfigFile).
 * Plain functions that throw a `Violation`: the test (test/integration/fuzz/config.test.ts) and the soak
 * (scripts/soak.ts) both run them.
 *
 * - A valid file round-trips: what the core holds afterwards is what the file says, and applying it again
 *   changes nothing.
 * - An unknown key anywhere (a one-letter typo of a real key, or a made-up one) is refused with its path,
 *   a "did you mean" naming a real key at that place for a typo, and nothing of the file applied.
 * - Anything else (wrong types, random JSON, truncated text) is refused as a HookbenchError naming the file
 *   and a field, or applied; never another exception, never half applied.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { HookbenchError } from '../../main/contract/result.js';
import { keysAt } from '../../main/contract/schemas.js';
import { configSchema } from '../../main/contract/config.js';
import { receiverInputSchema } from '../../main/contract/receiver/receiver.js';
import type { Core } from '../../main/app/createCore.js';
import { applyConfigFile } from '../../main/server/workbench.js';
import { Violation } from './ingestFuzz.js';

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
type Obj = { [k: string]: Json };

// ------------------------------------------------------------------------------------------- generators

const name = fc.stringMatching(/^[a-z][a-z0-9]{0,7}$/);
const latin1Value = fc.stringMatching(/^[!-~]([ -~éü]{0,10}[!-~])?$/);
const secret = fc.stringMatching(/^[!-~]{1,20}$/);

function webhookArb(receivers: string[]) {
  const url = fc.oneof(
    fc.constantFrom('http://127.0.0.1:9/hook', 'https://example.test/a/b?x=1', 'http://localhost:8080/', 'https://ada:pw@example.test/in'),
    ...(receivers.length ? [fc.constantFrom(...receivers).chain((r) => fc.constantFrom(`receiver:${r}`, `receiver+tls:${r}`))] : []),
  );
  return fc.record({ url, headers: fc.dictionary(fc.constantFrom('X-Env', 'X-Team', 'Authorization', 'X-Api-Key', 'X-Trace'), latin1Value, { maxKeys: 3 }) });
}

/** A config file every field of which is given (so that applying it sets the state it describes, whatever came before). */
export const validConfigArb: fc.Arbitrary<Obj> = fc
  .record({
    sources: fc.uniqueArray(name, { maxLength: 3 }),
    receivers: fc.uniqueArray(name, { maxLength: 3 }),
    destinations: fc.uniqueArray(name, { maxLength: 3 }),
  })
  .chain(({ sources, receivers, destinations }) =>
    fc.record({
      sources: fc.tuple(...sources.map((s) => fc.record({ kind: fc.constantFrom('web', 'mobile', 'server'), n: fc.nat(999) }).map(({ kind, n }) => ({ name: s, kind, writeKey: `wk_${s}_${n}` })))),
      receivers: fc.tuple(
        ...receivers.map((r) =>
          fc.record({
            name: fc.constant(r),
            secret: fc.option(secret, { nil: null }),
            script: fc.oneof(fc.constantFrom(200, 204, 500, '500,500,200', 'never', 'reset', 'close'), fc.record({ status: fc.constantFrom(200, 503), delayMs: fc.integer({ min: 0, max: 9000 }) })),
          }),
        ),
      ),
      destinations: fc.tuple(
        ...destinations.map((d) =>
          fc.array(webhookArb(receivers), { maxLength: 5 }).chain((webhooks) =>
            fc.record({
              name: fc.constant(d),
              enabled: webhooks.length ? fc.boolean() : fc.constant(false),
              sources: fc.subarray(sources),
              sharedSecret: fc.option(secret, { nil: null }),
              webhooks: fc.constant(webhooks),
              caFile: fc.constant(null),
              timeoutMs: fc.integer({ min: 1, max: 120_000 }),
              retry: fc.record({
                schedule: fc.array(fc.integer({ min: 1, max: 7 * 24 * 3_600_000 }), { minLength: 1, maxLength: 5 }),
                windowMs: fc.integer({ min: 0, max: 30 * 24 * 3_600_000 }),
                jitter: fc.double({ min: 0, max: 1, noNaN: true }),
                maxAttempts: fc.integer({ min: 1, max: 1000 }),
              }),
              filters: fc.record({ allowEvents: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 }), blockEvents: fc.array(fc.string({ minLength: 1, maxLength: 8 }), { maxLength: 3 }) }),
            }),
          ),
        ),
      ),
    }),
  ) as unknown as fc.Arbitrary<Obj>;

/** Every object in a config with its path and the keys the schema knows there. */
function objectsOf(config: Obj): { path: (string | number)[]; obj: Obj; known: string[] }[] {
  const out: { path: (string | number)[]; obj: Obj; known: string[] }[] = [];
  const visit = (value: Json, path: (string | number)[]) => {
    if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, i]));
    else if (value && typeof value === 'object') {
      // Headers are a record (any name is a key); scripts are not walked: neither has a fixed key set.
      const last = path.at(-1);
      if (last === 'headers' || last === 'script') return;
      const known = path[0] === 'receivers' ? Object.keys(receiverInputSchema.shape) : keysAt(configSchema, path);
      out.push({ path, obj: value, known });
      for (const [k, v] of Object.entries(value)) visit(v, [...path, k]);
    }
  };
  visit(config, []);
  return out;
}

/** One-letter typos of a key: case, a letter dropped, doubled or replaced. */
function typosOf(key: string): string[] {
  const out = new Set<string>([key.toLowerCase(), key.toUpperCase()]);
  for (let i = 0; i < key.length; i++) {
    out.add(key.slice(0, i) + key.slice(i + 1));
    out.add(key.slice(0, i) + key[i] + key.slice(i));
    out.add(key.slice(0, i) + 'q' + key.slice(i + 1));
  }
  out.delete(key);
  out.delete('');
  return [...out];
}

export interface UnknownKeyCase {
  config: Obj;
  path: string;
  key: string;
  /** The key it is a typo of, or null for a made-up key. */
  typoOf: string | null;
  known: string[];
}

export const unknownKeyArb: fc.Arbitrary<UnknownKeyCase> = validConfigArb.chain((config) => {
  const places = objectsOf(config).filter((p) => p.known.length > 0);
  return fc.tuple(fc.constantFrom(...places), fc.nat(), fc.boolean(), fc.jsonValue({ maxDepth: 1 })).map(([place, pick, made, value]) => {
    const candidates = place.known.flatMap((k) => typosOf(k).map((t) => ({ key: t, typoOf: k }))).filter((c) => !place.known.includes(c.key) && !Object.hasOwn(place.obj, c.key));
    const chosen = made || candidates.length === 0 ? { key: 'zzzNotAField', typoOf: null } : candidates[pick % candidates.length]!;
    const copy = structuredClone(config);
    let target: Json = copy;
    for (const p of place.path) target = (target as Record<string | number, Json>)[p]!;
    (target as Obj)[chosen.key] = value as Json;
    const path = place.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`)).join('').replace(/^\./, '');
    return { config: copy, path, ...chosen, known: place.known };
  });
});

/** A valid file with something random put somewhere, or text that is not a config at all. */
export const hostileConfigArb: fc.Arbitrary<string> = fc.oneof(
  fc.tuple(validConfigArb, fc.nat(), fc.string({ maxLength: 10 }), fc.jsonValue({ maxDepth: 3 })).map(([config, pick, key, value]) => {
    const places = objectsOf(config);
    const place = places[pick % places.length]!;
    const keys = [...Object.keys(place.obj), ...place.known, key];
    place.obj[keys[pick % keys.length]!] = value as Json;
    return JSON.stringify(config);
  }),
  fc.tuple(validConfigArb, fc.double({ min: 0, max: 1, noNaN: true })).map(([c, f]) => {
    const text = JSON.stringify(c);
    return text.slice(0, Math.floor(text.length * f));
  }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constantFrom('', '\ufeff{}', '{"sources": null}', '{"destinations": [{}]}', '{"receivers": [{"name": "../x"}]}', `{"destinations": ${'['.repeat(5000)}${']'.repeat(5000)}}`),
);

// ------------------------------------------------------------------------------------------- checks

/** What a config can change, as one comparable value (no timestamps, no ids, secrets in clear). */
export function snapshot(core: Core): string {
  const sources = core.listSources();
  const destinations = core.listDestinations();
  const receivers = core.receivers.listReceivers();
  if (!sources.ok || !destinations.ok || !receivers.ok) throw new Violation('a list failed');
  return JSON.stringify({
    sources: sources.value.items.map((s) => ({ name: s.name, kind: s.kind, writeKey: s.writeKey })),
    destinations: destinations.value.items.map((d) => {
      const full = core.findDestination(d.id)!;
      const { createdAt: _c, updatedAt: _u, id: _i, ...rest } = full;
      // The order of sourceIds is not part of the contract (a rollback reloads them in the database's order).
      return { ...rest, sourceIds: [...rest.sourceIds].sort() };
    }),
    receivers: receivers.value.items.map((r) => ({ name: r.name, secret: r.secret, script: r.script })),
  });
}

function writeConfig(dir: string, text: string): string {
  const file = join(dir, `config-${process.pid}.json`);
  writeFileSync(file, text);
  return file;
}

/** Applies a file; answers the HookbenchError it was refused with, or null. Any other exception is a violation. */
function apply(core: Core, file: string): HookbenchError | null {
  try {
    applyConfigFile(core, file);
    return null;
  } catch (e) {
    if (e instanceof HookbenchError) return e;
    throw new Violation(`applying a config file threw ${e instanceof Error ? `${e.name}: ${e.message}` : String(e)} instead of a HookbenchError`);
  }
}

/** A valid config applies, reads back as given, and applying it again changes nothing. */
export function checkRoundTrip(core: Core, dir: string, config: Obj): void {
  const file = writeConfig(dir, JSON.stringify(config));
  const refused = apply(core, file);
  if (refused) throw new Violation(`a valid config was refused: ${refused.message}\n  ${JSON.stringify(config).slice(0, 600)}`);
  const sourceId = (n: string) => core.findSource(n)?.id;
  for (const s of config['sources'] as Obj[]) {
    const got = core.findSource(s['name'] as string);
    if (!got || got.kind !== s['kind'] || got.writeKey !== s['writeKey']) throw new Violation(`source ${String(s['name'])} reads back as ${JSON.stringify(got)}`);
  }
  for (const d of config['destinations'] as Obj[]) {
    const got = core.findDestination(d['name'] as string);
    if (!got) throw new Violation(`destination ${String(d['name'])} was not created`);
    const want = {
      enabled: d['enabled'],
      sourceIds: [...(d['sources'] as string[]).map(sourceId)].sort(),
      sharedSecret: d['sharedSecret'],
      webhooks: d['webhooks'],
      timeoutMs: d['timeoutMs'],
      retry: d['retry'],
      filters: d['filters'],
    };
    const seen = { enabled: got.enabled, sourceIds: [...got.sourceIds].sort(), sharedSecret: got.sharedSecret, webhooks: got.webhooks, timeoutMs: got.timeoutMs, retry: got.retry, filters: got.filters };
    if (JSON.stringify(sortKeys(seen)) !== JSON.stringify(sortKeys(want))) {
      throw new Violation(`destination ${String(d['name'])} reads back differently:\n  file: ${JSON.stringify(sortKeys(want))}\n  core: ${JSON.stringify(sortKeys(seen))}`);
    }
  }
  for (const r of config['receivers'] as Obj[]) {
    const got = core.receivers.getReceiver({ name: r['name'] as string });
    if (!got.ok || got.value.secret !== r['secret']) throw new Violation(`receiver ${String(r['name'])} reads back as ${JSON.stringify(got)}`);
  }
  const before = snapshot(core);
  const again = apply(core, file);
  if (again) throw new Violation(`the same config applied a second time was refused: ${again.message}`);
  if (snapshot(core) !== before) throw new Violation('applying the same config a second time changed the state');
}

/** An unknown key is refused with its path and a "did you mean" for a typo; nothing is applied. */
export function checkUnknownKey(core: Core, dir: string, c: UnknownKeyCase): void {
  const before = snapshot(core);
  const file = writeConfig(dir, JSON.stringify(c.config));
  const refused = apply(core, file);
  const where = `${c.path ? `${c.path}.` : ''}${c.key}`;
  if (!refused) throw new Violation(`an unknown key ${where} was accepted`);
  if (!refused.message.includes(`${where}: unknown field`)) throw new Violation(`the refusal of ${where} does not name it: ${refused.message}`);
  if (refused.error.field !== where) throw new Violation(`the refusal of ${where} names the field ${String(refused.error.field)}`);
  if (c.typoOf) {
    const hint = /did you mean "([^"]+)"\?/.exec(refused.message)?.[1];
    if (!hint || !c.known.includes(hint)) throw new Violation(`the typo ${where} (of ${c.typoOf}) got no "did you mean" naming a real key: ${refused.message}`);
  }
  const after = snapshot(core);
  if (after !== before) throw new Violation(`a refused config (${where}) changed the state: ${difference(before, after)}`);
}

/** Anything: applied, or refused as a HookbenchError naming the file and a field; never half applied. */
export function checkHostile(core: Core, dir: string, text: string): 'applied' | 'refused' {
  const before = snapshot(core);
  const file = writeConfig(dir, text);
  const refused = apply(core, file);
  if (!refused) return 'applied';
  if (!refused.message.startsWith(`config ${file}: `)) throw new Violation(`a refusal that does not name the file: ${refused.message}`);
  if (typeof refused.error.field !== 'string' || refused.error.field === '') throw new Violation(`a refusal that names no field: ${refused.message}`);
  const after = snapshot(core);
  if (after !== before) throw new Violation(`a refused config changed the state: ${refused.message}\n  ${text.slice(0, 400)}\n  ${difference(before, after)}`);
  return 'refused';
}

/** Where two snapshots part, with some context. */
function difference(a: string, b: string): string {
  let i = 0;
  while (i < a.length && a[i] === b[i]) i++;
  return `before: …${a.slice(Math.max(0, i - 120), i + 80)}…\n  after:  …${b.slice(Math.max(0, i - 120), i + 80)}…`;
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).sort(([a], [b]) => a.localeCompare(b)).map(([k, v]) => [k, sortKeys(v)]));
  return value;
}
