import { describe, expect, it } from 'vitest';
import { RELAUNCHED_ENV, SERVE_MALLOC_ARENA_MAX, SERVE_V8_FLAGS, serveRelaunch, type ProcessFacts } from '../../../main/cli/relaunch.js';

const NODE = '/opt/node/bin/node';
const facts = (over: Partial<ProcessFacts> = {}): ProcessFacts => ({
  argv: [NODE, '/app/dist/main/cli.js', 'serve', '--port', '0'],
  execArgv: [],
  execPath: NODE,
  env: { PATH: '/usr/bin', HOME: '/home/u' },
  platform: 'linux',
  ...over,
});

describe("serve's relaunch with its memory settings", () => {
  it('starts the same node, script and arguments again with the V8 flags, the arena limit and the marker, keeping the environment', () => {
    expect(serveRelaunch(facts())).toEqual({
      file: NODE,
      args: [NODE, ...SERVE_V8_FLAGS, '/app/dist/main/cli.js', 'serve', '--port', '0'],
      env: { PATH: '/usr/bin', HOME: '/home/u', MALLOC_ARENA_MAX: SERVE_MALLOC_ARENA_MAX, [RELAUNCHED_ENV]: '1' },
    });
  });

  it("keeps node's own options (a loader) after its flags", () => {
    const r = serveRelaunch(facts({ execArgv: ['--import', 'tsx'], argv: [NODE, '/app/main/cli.ts', 'serve'] }));
    expect(r?.args).toEqual([NODE, ...SERVE_V8_FLAGS, '--import', 'tsx', '/app/main/cli.ts', 'serve']);
  });

  it('leaves every other command as it is', () => {
    for (const command of ['send', 'receive', 'show', 'doctor', '--help', undefined]) {
      expect(serveRelaunch(facts({ argv: [NODE, '/app/dist/main/cli.js', ...(command ? [command] : [])] }))).toBeNull();
    }
  });

  it('runs as it is once relaunched, or when the marker is set by hand', () => {
    expect(serveRelaunch(facts({ env: { [RELAUNCHED_ENV]: '1' } }))).toBeNull();
    expect(serveRelaunch(facts({ env: { [RELAUNCHED_ENV]: '' } }))).toBeNull();
  });

  it('runs as it is under a debugger, which would attach to the process being replaced', () => {
    expect(serveRelaunch(facts({ execArgv: ['--inspect-brk=9229'] }))).toBeNull();
    expect(serveRelaunch(facts({ env: { NODE_OPTIONS: '--inspect' } }))).toBeNull();
  });

  it('keeps a semi-space size or an arena limit given by the user, and relaunches not at all when both are', () => {
    const flag = SERVE_V8_FLAGS[0]!.split('=')[0]!;
    const own = serveRelaunch(facts({ execArgv: [`${flag}=16`] }));
    expect(own?.args).toEqual([NODE, `${flag}=16`, '/app/dist/main/cli.js', 'serve', '--port', '0']);
    expect(own?.env.MALLOC_ARENA_MAX).toBe(SERVE_MALLOC_ARENA_MAX);
    const arenas = serveRelaunch(facts({ env: { MALLOC_ARENA_MAX: '8' } }));
    expect(arenas?.env.MALLOC_ARENA_MAX).toBe('8');
    expect(arenas?.args.slice(1, 1 + SERVE_V8_FLAGS.length)).toEqual(SERVE_V8_FLAGS);
    expect(serveRelaunch(facts({ env: { NODE_OPTIONS: `--max-old-space-size=512 ${flag}=2`, MALLOC_ARENA_MAX: '4' } }))).toBeNull();
  });

  it("sets no arena limit off Linux (it is glibc malloc's), so macOS relaunches for the V8 flags alone", () => {
    const mac = serveRelaunch(facts({ platform: 'darwin' }));
    expect(mac?.env.MALLOC_ARENA_MAX).toBeUndefined();
    expect(mac?.args.slice(1, 1 + SERVE_V8_FLAGS.length)).toEqual(SERVE_V8_FLAGS);
    expect(serveRelaunch(facts({ platform: 'darwin', execArgv: [SERVE_V8_FLAGS[0]!] }))).toBeNull();
  });
});
