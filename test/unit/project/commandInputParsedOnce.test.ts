/**
 * A command's input is parsed once, where the command enters (main/contract/dispatch.ts): the services
 * behind the commands take it parsed and never parse it again. What proves it: no file of those features
 * imports a value that is a command's input schema, or an object schema of one of its fields (a patch), so
 * none can parse with one; nor the command table or the boundary's own parse. Read from the sources' imports
 * and compared by identity with the table's schemas, so a schema imported under another name is caught too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { COMMANDS } from '../../../main/contract/commands.js';

const MAIN = resolve(dirname(fileURLToPath(import.meta.url)), '../../../main');
const FEATURES = ['audiences', 'registry', 'receiver', 'control', 'history'];
/** What only the boundary may use to parse a command's input. */
const BOUNDARY_ONLY = new Set(['COMMANDS', 'commandSchemas', 'parseCommandInput']);

/** The schema under optional, nullable, default and the like. */
function unwrapped(schema: z.core.$ZodType): z.core.$ZodType {
  let s = schema;
  for (let i = 0; i < 10; i++) {
    const def = s._zod.def as unknown as { type: string; innerType?: z.core.$ZodType };
    if (!['optional', 'nullable', 'default', 'prefault', 'readonly', 'nonoptional'].includes(def.type) || !def.innerType) break;
    s = def.innerType;
  }
  return s;
}

/** Every command's input schema, and each of its fields that is an object schema itself (`patch`). */
function commandInputSchemas(): Map<unknown, string> {
  const found = new Map<unknown, string>();
  for (const [name, declared] of Object.entries(COMMANDS)) {
    const input = declared.input as z.core.$ZodType;
    found.set(input, `${name}'s input`);
    const def = unwrapped(input)._zod.def as unknown as { type: string; shape?: Record<string, z.core.$ZodType> };
    for (const [field, schema] of Object.entries(def.type === 'object' ? (def.shape ?? {}) : {})) {
      const inner = unwrapped(schema);
      if ((inner._zod.def as { type: string }).type === 'object') {
        found.set(schema, `${name}'s ${field}`);
        found.set(inner, `${name}'s ${field}`);
      }
    }
  }
  return found;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? filesUnder(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : []));
}

interface ValueImport {
  local: string;
  imported: string;
  from: string;
}

/** The values a source file imports (type-only imports carry no schema), and whether it imports a namespace. */
function valueImports(source: string): { imports: ValueImport[]; namespaces: string[] } {
  const imports: ValueImport[] = [];
  for (const m of source.matchAll(/^import\s+(type\s+)?\{([^}]*)\}\s+from\s+'([^']+)'/gm)) {
    if (m[1]) continue;
    for (const spec of m[2]!.split(',').map((s) => s.trim()).filter(Boolean)) {
      if (spec.startsWith('type ')) continue;
      const [imported, local = imported] = spec.split(/\s+as\s+/);
      imports.push({ local: local!, imported: imported!, from: m[3]! });
    }
  }
  const namespaces = [...source.matchAll(/^import\s+\*\s+as\s+\w+\s+from\s+'([^']+)'/gm)].map((m) => m[1]!);
  return { imports, namespaces };
}

/** Why a file's imports could let it parse a command's input, one line each. */
async function problemsOf(file: string, source: string, schemas: Map<unknown, string>): Promise<string[]> {
  const problems: string[] = [];
  const { imports, namespaces } = valueImports(source);
  for (const from of namespaces) if (from.includes('/contract/')) problems.push(`${relative(MAIN, file)}: imports all of ${from}`);
  for (const { imported, from } of imports) {
    if (!from.startsWith('.')) continue;
    if (BOUNDARY_ONLY.has(imported)) {
      problems.push(`${relative(MAIN, file)}: imports ${imported}, which only the command boundary uses`);
      continue;
    }
    const module = (await import(resolve(dirname(file), from.replace(/\.js$/, '.ts')))) as Record<string, unknown>;
    const what = schemas.get(module[imported]);
    if (what) problems.push(`${relative(MAIN, file)}: imports ${imported} (${what}) from ${from}`);
  }
  return problems;
}

describe("the services behind the commands never parse a command's input again", () => {
  const schemas = commandInputSchemas();

  it('no file of theirs imports a command input schema, a patch of one, or the boundary’s parse', async () => {
    const files = FEATURES.flatMap((feature) => filesUnder(join(MAIN, feature)));
    expect(files.length).toBeGreaterThan(10);
    const problems: string[] = [];
    for (const file of files) problems.push(...(await problemsOf(file, readFileSync(file, 'utf8'), schemas)));
    expect(problems).toEqual([]);
  });

  it('the check finds such an import, under its own name or another, and leaves alone what is not a command’s input', async () => {
    const registry = join(MAIN, 'registry/registry.ts');
    const named = "import { destinationInputSchema, parseWith } from '../contract/schemas.js';";
    const renamed = "import { destinationPatchSchema as patchRules } from '../contract/schemas.js';";
    const boundary = "import { parseCommandInput } from '../contract/dispatch.js';";
    const fine = "import { parseWith, webhookInputSchema, writeKeySchema } from '../contract/schemas.js';\nimport type { DestinationInput } from '../contract/schemas.js';";
    expect(await problemsOf(registry, named, schemas)).toEqual(["registry/registry.ts: imports destinationInputSchema (createDestination's input) from ../contract/schemas.js"]);
    expect(await problemsOf(registry, renamed, schemas)).toEqual(["registry/registry.ts: imports destinationPatchSchema (updateDestination's patch) from ../contract/schemas.js"]);
    expect(await problemsOf(registry, boundary, schemas)).toHaveLength(1);
    expect(await problemsOf(registry, fine, schemas)).toEqual([]);
  });
});
