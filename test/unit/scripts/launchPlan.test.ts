import { execFile } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, describe, expect, it } from 'vitest';
import { findElectron } from '../../../scripts/electron-binary.mjs';
import { planStart } from '../../../scripts/launch-plan.mjs';
import { tempDir } from '../../helpers/tempDir.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));
const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

/** A project root with node_modules/electron, with or without its binary. */
function fakeProject({ binary }: { binary: boolean }): string {
  const t = tempDir();
  cleanups.push(t.cleanup);
  const electron = join(t.dir, 'node_modules', 'electron');
  mkdirSync(join(electron, 'dist'), { recursive: true });
  writeFileSync(join(electron, 'package.json'), JSON.stringify({ name: 'electron', version: '41.7.1' }));
  if (binary) {
    writeFileSync(join(electron, 'path.txt'), 'electron');
    writeFileSync(join(electron, 'dist', 'electron'), '');
  }
  return t.dir;
}

describe('npm start (scripts/launch-plan.mjs)', () => {
  it('without an Electron binary: serve on this Node, saying why in one line', () => {
    const root = fakeProject({ binary: false });
    const plan = planStart({ root, args: ['--port', '0'], env: { ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    expect(plan).toMatchObject({ desktop: false, command: process.execPath, args: [join(root, 'dist', 'main', 'cli.js'), 'serve', '--port', '0'] });
    expect(plan.note).toMatch(/^The desktop app is unavailable: no Electron 41\.7\.1 binary is installed: its download was skipped \(ELECTRON_SKIP_BINARY_DOWNLOAD is set\)\.\nStarting the browser UI instead/);
  });

  it('with one: the desktop app, with nothing to rebuild and ELECTRON_RUN_AS_NODE removed', () => {
    const root = fakeProject({ binary: true });
    const plan = planStart({ root, args: ['--data', '/tmp/d'], env: { ELECTRON_RUN_AS_NODE: '1', HOME: '/h' } });
    expect(plan).toEqual({
      desktop: true,
      command: join(root, 'node_modules', 'electron', 'dist', 'electron'),
      args: [join(root, 'dist', 'main', 'desktop', 'main.js'), '--data', '/tmp/d'],
      env: { HOME: '/h' },
      note: null,
    });
  });

  it('findElectron reads the electron package without requiring it', () => {
    expect(findElectron(fakeProject({ binary: true }))).toMatchObject({ version: '41.7.1', binary: expect.stringMatching(/electron$/) });
  });
});

describe('npm install (scripts/postinstall.mjs)', () => {
  it('here (no Electron binary) it prints one line saying the browser UI will be used, and succeeds', async () => {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [join(ROOT, 'scripts', 'postinstall.mjs')], { env: { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' } });
    if (findElectron(ROOT).binary) return expect(stdout).toBe(''); // a machine with Electron: nothing to say
    expect(stdout.trim().split('\n')).toEqual([expect.stringMatching(/^hookbench: the desktop app is unavailable \(.+\); `npm start` will run the browser UI instead\.$/)]);
    expect(stderr).toBe('');
  });
});
