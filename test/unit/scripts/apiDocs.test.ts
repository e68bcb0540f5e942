import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { COMMAND_NAMES } from '../../../main/contract/commands.js';
import { ENGINE_EVENT_TYPES } from '../../../main/contract/events.js';
import { listMessagesInputSchema } from '../../../main/contract/commandInputs.js';
import { renderApiDocs } from '../../../scripts/apiDocs.js';

describe('docs/api.md', () => {
  const shipped = readFileSync(new URL('../../../docs/api.md', import.meta.url), 'utf8');

  it('is generated from the command table (run `npm run docs:api` after changing a command)', () => {
    expect(shipped).toBe(renderApiDocs());
  });

  it('documents every command with its input schema', () => {
    for (const name of COMMAND_NAMES) expect(shipped, name).toContain(`### ${name}\n`);
    expect(shipped).toContain('"maxLength": 1000'); // listMessages' text filter, from its zod schema
  });

  it("docs/usage.md's list of commands names every command, so a reader of that list misses none", () => {
    const usage = readFileSync(new URL('../../../docs/usage.md', import.meta.url), 'utf8');
    const list = /^- \*\*Commands:\*\*\n((?: {2}.*\n)+)/m.exec(usage)?.[1] ?? '';
    const named = new Set([...list.matchAll(/`([A-Za-z]+)`/g)].map((m) => m[1]));
    expect(COMMAND_NAMES.filter((name) => !named.has(name))).toEqual([]);
  });

  it("docs/usage.md's list of pushed events names every event", () => {
    const usage = readFileSync(new URL('../../../docs/usage.md', import.meta.url), 'utf8');
    const list = /^- \*\*Events:\*\*[^]*?(?=\n\n|\n- \*\*|\n`hookbench info`)/m.exec(usage)?.[0] ?? '';
    expect(ENGINE_EVENT_TYPES.filter((type) => !list.includes(`\`${type}\``))).toEqual([]);
  });

  it("docs/usage.md's listMessages names every filter it takes", () => {
    const usage = readFileSync(new URL('../../../docs/usage.md', import.meta.url), 'utf8');
    const filters = /`listMessages` \(filters: ([^]*?)\),\n/.exec(usage)?.[1] ?? '';
    const paging = ['cursor', 'limit'];
    expect(Object.keys(listMessagesInputSchema.shape).filter((key) => !paging.includes(key) && !filters.includes(`\`${key}`))).toEqual([]);
  });
});
