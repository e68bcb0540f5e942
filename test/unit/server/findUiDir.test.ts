import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { findUiDir } from '../../../main/server/workbench.js';
import { tempDir } from '../../helpers/tempDir.js';

describe('findUiDir', () => {
  const cleanups: (() => void)[] = [];
  afterEach(() => cleanups.splice(0).forEach((c) => c()));
  const layout = (withBuild: boolean) => {
    const { dir: root, cleanup } = tempDir();
    cleanups.push(cleanup);
    const page = (dir: string) => {
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, 'index.html'), '<!doctype html>');
    };
    page(join(root, 'renderer')); // the source folder: never served
    if (withBuild) page(join(root, 'dist', 'renderer'));
    mkdirSync(join(root, 'main', 'server'), { recursive: true });
    mkdirSync(join(root, 'dist', 'main', 'server'), { recursive: true });
    return root;
  };

  it('finds dist/renderer from the sources (tsx) and from the build', () => {
    const root = layout(true);
    expect(findUiDir(join(root, 'main', 'server'))).toBe(join(root, 'dist', 'renderer'));
    expect(findUiDir(join(root, 'dist', 'main', 'server'))).toBe(join(root, 'dist', 'renderer'));
  });

  it('does not mistake the source folder renderer/ for a build', () => {
    const root = layout(false);
    expect(findUiDir(join(root, 'main', 'server'))).toBeNull();
  });
});
