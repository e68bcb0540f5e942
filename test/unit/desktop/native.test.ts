import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { nativeCapabilities, type NativeDeps } from '../../../main/desktop/native.js';
import { tempDir } from '../../helpers/tempDir.js';

const dirs: (() => void)[] = [];
afterEach(() => dirs.splice(0).forEach((c) => c()));

function fakes(over: Partial<NativeDeps> = {}) {
  const calls: { kind: string; arg: unknown }[] = [];
  const deps: NativeDeps = {
    showOpenDialog: async (o) => (calls.push({ kind: 'open', arg: o }), { canceled: true, filePaths: [] }),
    showSaveDialog: async (o) => (calls.push({ kind: 'save', arg: o }), { canceled: true, filePath: '' }),
    openPath: async (p) => (calls.push({ kind: 'openPath', arg: p }), ''),
    openExternal: async (u) => void calls.push({ kind: 'external', arg: u }),
    dataDir: '/data/Hookbench',
    ...over,
  };
  return { native: nativeCapabilities(deps), calls };
}

describe('native capabilities', () => {
  it('openFile: a dialog filtered for the purpose; the chosen file comes back with its text; cancel is null', async () => {
    const t = tempDir();
    dirs.push(t.cleanup);
    const file = join(t.dir, 'hookbench.config.json');
    writeFileSync(file, '{"sources":[]}');
    const { native, calls } = fakes({ showOpenDialog: async () => ({ canceled: false, filePaths: [file] }) });
    expect(await native.openFile({ purpose: 'config' })).toEqual({ path: file, text: '{"sources":[]}' });
    expect(await fakes().native.openFile({ purpose: 'caFile' })).toBeNull();
    expect(calls).toEqual([]);
    await expect(native.openFile({ purpose: 'anything' as never })).rejects.toThrow();
  });

  it('openFile for an import shows the extensions an export is saved with (.jsonl and .har) first', async () => {
    const calls: Parameters<NativeDeps['showOpenDialog']>[0][] = [];
    const { native } = fakes({ showOpenDialog: async (o) => (calls.push(o), { canceled: true, filePaths: [] }) });
    expect(await native.openFile({ purpose: 'import' })).toBeNull();
    expect(calls[0]!.filters![0]!.extensions).toEqual(expect.arrayContaining(['jsonl', 'har']));
  });

  it('openFile: a file that is not UTF-8 is refused naming its first bad byte, not read with U+FFFD in its place', async () => {
    const t = tempDir();
    dirs.push(t.cleanup);
    const file = join(t.dir, 'export.jsonl');
    writeFileSync(file, Buffer.concat([Buffer.from('{"message":{}}\n{"a":"caf'), Buffer.from([0xe9]), Buffer.from('"}\n')]));
    const { native } = fakes({ showOpenDialog: async () => ({ canceled: false, filePaths: [file] }) });
    await expect(native.openFile({ purpose: 'import' })).rejects.toThrow('export.jsonl: invalid UTF-8 at byte 24 (0xe9), line 2, column 10; the text must be UTF-8 (the byte is refused rather than replaced)');
  });

  it('saveFile: the renderer names the file only, the user picks the folder', async () => {
    const t = tempDir();
    dirs.push(t.cleanup);
    const target = join(t.dir, 'export.json');
    const { native, calls } = fakes({ showSaveDialog: async (o) => (calls.push({ kind: 'save', arg: o }), { canceled: false, filePath: target }) });
    expect(await native.saveFile({ defaultName: '../../etc/export.json', content: '[1]' })).toEqual({ path: target });
    expect(calls[0]!.arg).toEqual({ defaultPath: 'export.json' });
    expect(readFileSync(target, 'utf8')).toBe('[1]');
  });

  it('openExternal: http(s) only; revealDataDir opens the data dir and reports a failure', async () => {
    const { native, calls } = fakes();
    await native.openExternal('https://example.com/docs');
    await expect(native.openExternal('file:///etc/passwd')).rejects.toThrow(/only http and https/);
    await expect(native.openExternal('javascript:alert(1)')).rejects.toThrow(/only http and https/);
    await native.revealDataDir();
    expect(calls).toEqual([
      { kind: 'external', arg: 'https://example.com/docs' },
      { kind: 'openPath', arg: '/data/Hookbench' },
    ]);
    await expect(fakes({ openPath: async () => 'Failed to open path' }).native.revealDataDir()).rejects.toThrow('cannot open /data/Hookbench: Failed to open path');
  });
});
