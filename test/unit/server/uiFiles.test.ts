/** The UI's files are read once and shared by every response while unchanged, and read again once changed. */
import { mkdtempSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { uiFileContent } from '../../../main/server/uiFiles.js';

describe('uiFileContent', () => {
  it('answers the very same buffer for an unchanged file, so waiting responses share one copy; a changed file is read again', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'hookbench-ui-')), 'index.html');
    writeFileSync(file, '<p>one</p>');
    const first = await uiFileContent(file);
    expect(first?.toString()).toBe('<p>one</p>');
    expect(await uiFileContent(file)).toBe(first);
    writeFileSync(file, '<p>two!</p>');
    utimesSync(file, new Date(), new Date(Date.now() + 5_000));
    expect((await uiFileContent(file))?.toString()).toBe('<p>two!</p>');
    expect(await uiFileContent(join(file, '..', 'missing.js'))).toBeNull();
    expect(await uiFileContent(join(file, '..'))).toBeNull();
  });
});
