/**
 * cli/io.ts runCommand: every CLI command's one way of saying a usage error (`hookbench <name>: <message>` on
 * stderr, exit 2), for commands whose body is synchronous or async; anything else is not a usage error.
 */
import { describe, expect, it } from 'vitest';
import { EXIT, runCommand, UsageError } from '../../../main/cli/io.js';
import { runVerify } from '../../../main/cli/commands/verify.js';
import { captureIO } from '../../helpers/cliIO.js';

describe('runCommand', () => {
  it('says a usage error thrown by a synchronous body on stderr, with the command name, and exits 2', () => {
    const c = captureIO();
    const code = runCommand(c.io, 'info', () => {
      throw new UsageError('unknown field "x"');
    });
    expect(code).toBe(EXIT.usage);
    expect(c.err()).toBe('hookbench info: unknown field "x"\n');
    expect(c.out()).toBe('');
  });

  it('says a usage error rejected by an async body the same way', async () => {
    const c = captureIO();
    const code = await runCommand(c.io, 'delete-user', async () => {
      await Promise.resolve();
      throw new UsageError('no running Hookbench found');
    });
    expect(code).toBe(EXIT.usage);
    expect(c.err()).toBe('hookbench delete-user: no running Hookbench found\n');
  });

  it("returns the body's own exit code untouched", async () => {
    const c = captureIO();
    expect(runCommand(c.io, 'info', () => EXIT.ok)).toBe(EXIT.ok);
    expect(await runCommand(c.io, 'show', async () => EXIT.failed)).toBe(EXIT.failed);
    expect(c.err()).toBe('');
  });

  it('lets any other error through (runCli reports it as an internal error)', async () => {
    const c = captureIO();
    const bug = () => {
      throw new Error('bug');
    };
    expect(() => runCommand(c.io, 'info', bug)).toThrow('bug');
    await expect(runCommand(c.io, 'show', async () => bug())).rejects.toThrow('bug');
    expect(c.err()).toBe('');
  });

  it('hands the message to `say` when the command reports in its own format (send --json)', async () => {
    const c = captureIO();
    const said: string[] = [];
    const body = async (): Promise<number> => {
      throw new UsageError('--header: bad');
    };
    const code = await runCommand(c.io, 'send', body, (message) => {
      said.push(message);
      return 7;
    });
    expect(code).toBe(7);
    expect(said).toEqual(['--header: bad']);
    expect(c.err()).toBe('');
  });

  it('is what a command uses: verify with an unreadable --body file says so and exits 2', async () => {
    const c = captureIO();
    const code = await runVerify({ secret: 's', signature: 'ab', body: '@/nonexistent/hookbench-body' }, c.io);
    expect(code).toBe(EXIT.usage);
    expect(c.err()).toBe('hookbench verify: --body: /nonexistent/hookbench-body does not exist\n');
  });
});
