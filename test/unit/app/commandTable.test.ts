/**
 * The command table is declared in halves, one table per feature in each (docs/architecture.md, "Where to
 * add… A command"): the public half in main/contract/commands/<feature>.ts, the engine's half in
 * main/<feature>/commands.ts. These prove the halves pair up one for one, that no two features declare the
 * same name (the registries' spreads would silently keep the last), and that every answer that can carry a
 * secret or a credential URL is masked on its way out of the typed API.
 */
import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_IMPLS } from '../../../main/app/commands.js';
import { COMMAND_NAMES, COMMANDS } from '../../../main/contract/commands.js';

const CONTRACT = new URL('../../../main/contract/commands/', import.meta.url);
const features = readdirSync(CONTRACT)
  .filter((f) => f.endsWith('.ts'))
  .map((f) => f.slice(0, -'.ts'.length));

/** The one table a commands module exports. */
async function tableOf(url: URL): Promise<Record<string, unknown>> {
  const module = (await import(url.href)) as Record<string, unknown>;
  const tables = Object.values(module).filter((v): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v));
  expect(tables, url.pathname).toHaveLength(1);
  return tables[0]!;
}

/** Answer types that can hold a secret, a credential URL or a credential header (main/domain/secrets.ts masks each). */
const SECRET_BEARING = /\b(Destination|Source|ReceiverEndpoint|CaptureRecord|MessageDetail|MessageRecord|DeliveryRecord)\b/;
/** The one command that answers a secret in clear, on purpose. */
const SHOWS_SECRETS = new Set(['revealSecret']);

describe('the command table', () => {
  it('pairs each feature contract table with its handler table, one for one, and no name twice', async () => {
    expect(features.length).toBeGreaterThan(0);
    const seen: string[] = [];
    for (const feature of features) {
      const declared = Object.keys(await tableOf(new URL(`${feature}.ts`, CONTRACT)));
      const handled = Object.keys(await tableOf(new URL(`../../../main/${feature}/commands.ts`, import.meta.url)));
      expect(handled.sort(), feature).toEqual([...declared].sort());
      seen.push(...declared);
    }
    expect(seen.filter((name, i) => seen.indexOf(name) !== i)).toEqual([]);
    expect([...seen].sort()).toEqual([...COMMAND_NAMES].sort());
    expect(Object.keys(COMMAND_IMPLS).sort()).toEqual([...COMMAND_NAMES].sort());
  });

  it('masks every answer that can carry a secret (revealSecret alone shows one)', () => {
    const unmasked = COMMAND_NAMES.filter((name) => {
      const impl = COMMAND_IMPLS[name] as { mask?: unknown; viaApi?: unknown };
      return SECRET_BEARING.test(COMMANDS[name].answers.text) && !SHOWS_SECRETS.has(name) && !impl.mask && !impl.viaApi;
    });
    expect(unmasked).toEqual([]);
  });
});
