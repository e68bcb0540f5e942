import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { MINIMUM_NODE, runtimeProblem } from '../../../main/cli/runtime.js';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

describe('the runtime the project runs on', () => {
  it('is the Node the desktop app embeds (24), from node_modules, whatever the system Node is', () => {
    expect(process.versions.node.split('.')[0]).toBe('24');
    expect(runtimeProblem(process.versions.node)).toBeNull();
  });

  it('an older Node is refused in one line naming the version needed and the one found', () => {
    expect(runtimeProblem('20.20.2')).toBe(`hookbench needs Node ${MINIMUM_NODE} or newer and this is Node 20.20.2: run it as \`npx hookbench\` from the project (npm uses the Node 24 it installs), or install Node 24.`);
    expect(runtimeProblem('v22.13.9')).toMatch(/^hookbench needs Node 22\.14\.0 or newer and this is Node 22\.13\.9:/);
    expect(runtimeProblem('22.14.0')).toBeNull();
    expect(runtimeProblem('23.0.0')).toBeNull();
    expect(runtimeProblem('24.21.0')).toBeNull();
  });

  it('package.json asks npm for the same minimum and pins Node 24 as a devDependency', async () => {
    const pkg = (await import('../../../package.json', { with: { type: 'json' } })).default as { engines: { node: string }; devDependencies: Record<string, string> };
    expect(pkg.engines.node).toBe(`>=${MINIMUM_NODE.replace(/\.0$/, '')}`);
    expect(pkg.devDependencies['node']).toMatch(/^24\./);
  });

  it('the hookbench executable on an older Node prints that line and exits 2 before loading the engine', async () => {
    // The check runs before any import that needs the new runtime: simulate the old version in a child.
    const cli = join(ROOT, 'main', 'cli.ts');
    const run = promisify(execFile)(process.execPath, ['--import', 'tsx', '--eval', `Object.defineProperty(process.versions, 'node', { value: '20.20.2' }); await import(${JSON.stringify(cli)});`, '--input-type=module'], { cwd: ROOT });
    await expect(run).rejects.toMatchObject({ code: 2, stdout: '', stderr: expect.stringMatching(/^hookbench needs Node 22\.14\.0 or newer and this is Node 20\.20\.2: .*\n$/) });
  });
});
