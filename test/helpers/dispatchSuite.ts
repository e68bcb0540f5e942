/**
 * The dispatch suite: what every transport of the typed API must do the same way (HTTP here, Electron IPC
 * in the desktop shell's tests). A transport is given as a `call` function; the suite needs a fresh core
 * behind it.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { commandSchemas, COMMAND_NAMES } from '../../main/contract/commands.js';
import type { Result } from '../../main/contract/result.js';

export interface DispatchTransport {
  call(name: string, input: unknown): Promise<Result<unknown>>;
  close(): Promise<void>;
}

/** The fields of a command's input object, from its schema (empty for commands whose input is not a plain object). */
function fieldsOf(name: (typeof COMMAND_NAMES)[number]): string[] {
  let schema: z.ZodType = commandSchemas[name];
  // Unwrap refinements and pipes down to the object, where there is one.
  for (let i = 0; i < 5; i++) {
    if (schema instanceof z.ZodObject) return Object.keys(schema.shape);
    const def = (schema as unknown as { _zod: { def: { in?: z.ZodType; schema?: z.ZodType; innerType?: z.ZodType } } })._zod.def;
    const inner = def.in ?? def.schema ?? def.innerType;
    if (!inner) break;
    schema = inner;
  }
  return [];
}

/** Values of every JSON type, none of them what a field wants most of the time. */
const wrongValue = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer({ min: -5, max: 5 }),
  fc.double({ noNaN: true }),
  fc.string({ maxLength: 8 }),
  fc.array(fc.integer(), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.integer(), { maxKeys: 2 }),
  fc.constant('x'.repeat(50_000)),
);

export function describeDispatchSuite(transportName: string, open: () => Promise<DispatchTransport>): void {
  describe(`the typed API over ${transportName}`, () => {
    it('an unknown command is not_found; an inherited property name is not a command', async () => {
      const t = await open();
      try {
        for (const name of ['nope', 'constructor', '__proto__', 'toString', 'hasOwnProperty']) {
          const r = await t.call(name, {});
          expect(r.ok, name).toBe(false);
          if (!r.ok) expect(r.error.code, name).toBe('not_found');
        }
      } finally {
        await t.close();
      }
    });

    it('an unknown command names the one most likely meant: a typo or the wrong case', async () => {
      const t = await open();
      try {
        for (const [name, meant] of [['listMesages', 'listMessages'], ['listmessages', 'listMessages'], ['advanceclock', 'advanceClock']] as const) {
          const r = await t.call(name, {});
          expect(r).toMatchObject({ ok: false, error: { code: 'not_found', message: `unknown command "${name}" (did you mean ${meant}?); docs/api.md lists every command` } });
        }
      } finally {
        await t.close();
      }
    });

    it('an input that is not an object is refused saying what it was', async () => {
      const t = await open();
      try {
        for (const [input, got] of [[[1], 'an array'], ['x', 'the string "x"'], [5, 'number 5']] as const) {
          const r = await t.call('getMessage', input);
          expect(r, got).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
          // HTTP says it of the request body, the in-memory and IPC dispatch of the input.
          const words = r.ok ? '' : r.error.message;
          expect([`body: must be one JSON object (got ${got})`, `must be an object (got ${got})`]).toContain(words);
        }
      } finally {
        await t.close();
      }
    });

    it('wrong types reach no handler: invalid_input naming the field, never internal (every command, random values)', async () => {
      const t = await open();
      try {
        for (const name of COMMAND_NAMES) {
          const fields = fieldsOf(name);
          if (fields.length === 0) continue;
          await fc.assert(
            fc.asyncProperty(fc.constantFrom(...fields), wrongValue, async (field, value) => {
              const r = await t.call(name, { [field]: value });
              if (r.ok) return; // some values are valid (an optional flag given a boolean)
              expect(r.error.code, `${name} ${field}=${JSON.stringify(value).slice(0, 60)}: ${r.error.message}`).not.toBe('internal');
              if (r.error.code === 'invalid_input') expect(r.error.field, `${name}: ${r.error.message}`).toEqual(expect.any(String));
            }),
            { numRuns: 15, seed: 42 },
          );
        }
      } finally {
        await t.close();
      }
    });

    it('the probe\'s inputs get 400-class answers naming the field (ids of the wrong type, a huge search)', async () => {
      const t = await open();
      try {
        for (const id of [{ a: 1 }, true, [1], '1', 1.5, -1]) {
          const r = await t.call('getMessage', { id });
          expect(r, JSON.stringify(id)).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'id' } });
        }
        const huge = await t.call('listMessages', { text: 'x'.repeat(50_000) });
        expect(huge).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'text', limit: 1000 } });
        const unknownField = await t.call('getClock', { extra: 1 });
        expect(unknownField).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
        if (!unknownField.ok) expect(unknownField.error.message).toContain('extra');
        expect(await t.call('retryNow', {})).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'id' } });
      } finally {
        await t.close();
      }
    });

    it('a round trip: commands answer values, lists are pages, secrets masked until revealed', async () => {
      const t = await open();
      try {
        const source = await t.call('createSource', { name: 'web', kind: 'web', writeKey: 'wk_secret_key' });
        expect(source).toMatchObject({ ok: true, value: { name: 'web', writeKey: 'wk••••' } });
        const dest = await t.call('createDestination', {
          name: 'hook',
          sources: ['web'],
          sharedSecret: 's3cret',
          webhooks: [{ url: 'https://user:pa55word@example.test/hook', headers: { Authorization: 'Bearer abcdef123', 'X-Env': 'dev' } }],
        });
        expect(dest).toMatchObject({
          ok: true,
          value: { sharedSecret: 's3••••', webhooks: [{ url: 'https://user:••••@example.test/hook', headers: { Authorization: 'Be••••', 'X-Env': 'dev' } }] },
        });
        const sources = await t.call('listSources', {});
        expect(sources).toMatchObject({ ok: true, value: { items: [{ writeKey: 'wk••••' }], nextCursor: null } });
        for (const list of ['listDestinations', 'listDestinationStats', 'listReceivers', 'listAudiences', 'listSourceUsage', 'listDeletionRequests']) {
          const page = await t.call(list, {});
          expect(page, list).toMatchObject({ ok: true, value: { items: expect.any(Array), nextCursor: null } });
        }
        expect(await t.call('revealSecret', { kind: 'source', id: 'web' })).toEqual({ ok: true, value: { secret: 'wk_secret_key' } });
        expect(await t.call('revealSecret', { kind: 'destination', id: 'hook' })).toEqual({ ok: true, value: { secret: 's3cret' } });
        // A masked value sent back unchanged keeps the stored secret; a new one replaces it.
        const id = dest.ok ? (dest.value as { id: string }).id : '';
        const kept = await t.call('updateDestination', {
          id,
          patch: { sharedSecret: 's3••••', webhooks: [{ url: 'https://user:••••@example.test/hook', headers: { Authorization: 'Be••••' } }] },
        });
        expect(kept.ok).toBe(true);
        expect(await t.call('revealSecret', { kind: 'destination', id })).toEqual({ ok: true, value: { secret: 's3cret' } });
        const refused = await t.call('updateDestination', { id, patch: { sharedSecret: 'xx••••' } });
        expect(refused).toMatchObject({ ok: false, error: { code: 'invalid_input', field: 'patch.sharedSecret' } });
        // The same for a source's write key and a receiver's secret.
        expect((await t.call('updateSource', { id: 'web', patch: { writeKey: 'wk••••' } })).ok).toBe(true);
        expect(await t.call('revealSecret', { kind: 'source', id: 'web' })).toEqual({ ok: true, value: { secret: 'wk_secret_key' } });
        expect((await t.call('createReceiver', { name: 'rx', secret: 'receiver-secret' })).ok).toBe(true);
        expect(await t.call('updateReceiver', { name: 'rx', patch: { secret: 're••••' } })).toMatchObject({ ok: true, value: { secret: 're••••' } });
        expect(await t.call('revealSecret', { kind: 'receiver', id: 'rx' })).toEqual({ ok: true, value: { secret: 'receiver-secret' } });
        expect(await t.call('updateReceiver', { name: 'rx', patch: { secret: 'zz••••' } })).toMatchObject({ ok: false, error: { field: 'patch.secret' } });
        const clock = await t.call('getClock', {});
        expect(clock).toMatchObject({ ok: true, value: { offsetMs: expect.any(Number) } });
      } finally {
        await t.close();
      }
    });
  });
}
