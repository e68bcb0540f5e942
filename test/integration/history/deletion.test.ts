import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startServe } from '../../../main/cli/commands/serve.js';
import { runCli } from '../../../main/cli/program.js';
import { captureIO } from '../../helpers/cliIO.js';
import { must, newDataDir, newReceiver, onCleanup, settled } from '../../helpers/harness.js';
import { status } from '../../helpers/receiver.js';

describe('deletion flow (docs/behaviour.md §8)', () => {
  it('hookbench delete-user sends one delete per source that saw the user, to its enabled destinations', async () => {
    const rx = await newReceiver(status(200));
    const off = await newReceiver(status(200));
    const data = join(newDataDir(), 'data');
    const running = await startServe({ data, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => running.stop());
    const core = running.core;
    for (const [name, kind] of [['web', 'web'], ['backend', 'server'], ['other', 'server']] as const) must(core.createSource({ name, kind }));
    must(core.createDestination({ name: 'Hooks', enabled: true, sources: ['web', 'backend', 'other'], url: rx.url, sharedSecret: 's' }));
    must(core.createDestination({ name: 'Disabled', enabled: false, sources: ['backend'], url: off.url }));
    for (const source of ['web', 'backend']) {
      const sent = must(core.sendMessage({ type: 'identify', call: { userId: 'u1' }, source }));
      await settled(core, sent.message.id);
    }
    rx.captured.length = 0;

    const cli = captureIO();
    expect(await runCli(['delete-user', 'u1', '--data-dir', data], cli.io)).toBe(0);
    expect(cli.out()).toContain('2 delete messages (sources backend, web)');
    const [request] = must(core.listDeletionRequests()).items;
    // Sources are named by name, never by id.
    for (const id of request!.messageIds) expect(cli.out()).toMatch(new RegExp(`message #${id} from (web|backend): sending to Hooks`));
    for (const s of must(core.listSources()).items) expect(cli.out()).not.toContain(s.id);
    // A disabled destination of the source gets no delete, now or later: the line for that source says so.
    expect(cli.out()).toMatch(/from backend: sending to Hooks; not to Disabled \(disabled\)\n/);
    expect(cli.out()).toMatch(/from web: sending to Hooks\n/);
    // The command ends before delivery does: it says how to follow it.
    expect(cli.out()).toContain(`the serve delivers them, retrying failures: follow one with hookbench show ${request!.messageIds[0]} --data-dir ${data}\n`);
    expect(request!.messageIds).toHaveLength(2);
    for (const id of request!.messageIds) expect((await settled(core, id)).message.status).toBe('delivered');
    const bodies = rx.captured.map((c) => JSON.parse(c.body.toString()) as Record<string, unknown>);
    expect(bodies).toHaveLength(2);
    for (const b of bodies) {
      expect(Object.keys(b)).toEqual(['type', 'userId', 'timestamp', 'messageId']);
      expect(b).toMatchObject({ type: 'delete', userId: 'u1' });
    }
    expect(off.captured).toHaveLength(0);

    // Every destination of the source disabled: the line says the delete went nowhere, and names them.
    const hooksId = must(core.listDestinations()).items.find((d) => d.name === 'Hooks')!.id;
    must(core.updateDestination({ id: hooksId, patch: { enabled: false } }));
    const nowhere = captureIO();
    expect(await runCli(['delete-user', 'u1', '--source', 'backend', '--data-dir', data], nowhere.io)).toBe(0);
    expect(nowhere.out()).toMatch(/from backend: not sent: no enabled destination is connected to source "backend" \(disabled: Disabled, Hooks\)\n/);
    expect(nowhere.out()).not.toContain('hookbench show'); // nothing to follow
    // --json says the same to a script: each message's disabled destinations, by name.
    const json = captureIO();
    expect(await runCli(['delete-user', 'u1', '--json', '--data-dir', data], json.io)).toBe(0);
    const answer = JSON.parse(json.out()) as { messages: { message: { sourceId: string }; disabledDestinations: string[] }[] };
    const sourceName = new Map(must(core.listSources()).items.map((s) => [s.id, s.name]));
    expect(Object.fromEntries(answer.messages.map((m) => [sourceName.get(m.message.sourceId), m.disabledDestinations]))).toEqual({ backend: ['Disabled', 'Hooks'], web: ['Hooks'] });
  });

  it('names the sources explicitly, or says clearly when no source has seen the user', async () => {
    const rx = await newReceiver(status(200));
    const data = join(newDataDir(), 'data');
    const running = await startServe({ data, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 }, { stdout: () => undefined, stderr: () => undefined });
    onCleanup(() => running.stop());
    must(running.core.createSource({ name: 'web', kind: 'web' }));
    must(running.core.createDestination({ name: 'Hooks', enabled: true, sources: ['web'], url: rx.url }));
    const unseen = captureIO();
    // --data is the older spelling of --data-dir, still accepted.
    expect(await runCli(['delete-user', 'ghost', '--data', data], unseen.io)).toBe(2);
    expect(unseen.err()).toContain('no source has seen "ghost"');
    const named = captureIO();
    expect(await runCli(['delete-user', 'ghost', '--source', 'web', '--data', data, '--json'], named.io)).toBe(0);
    expect(JSON.parse(named.out()).messages).toHaveLength(1);
    // The same source named twice (by name, then by id) is one source: one delete message.
    const webId = must(running.core.listSources()).items.find((s) => s.name === 'web')!.id;
    const twice = captureIO();
    expect(await runCli(['delete-user', 'ghost', '--source', 'web', '--source', webId, '--data', data, '--json'], twice.io)).toBe(0);
    expect(JSON.parse(twice.out()).messages).toHaveLength(1);
    const unknown = captureIO();
    expect(await runCli(['delete-user', 'ghost', '--source', 'mobile', '--data', data], unknown.io)).toBe(2);
    expect(unknown.err()).toBe('hookbench delete-user: --source: no source named or with id "mobile"; the sources are "web"\n');
    // A comma list, as check --only takes, is one name to --source: the error shows the repeated flag instead.
    const commas = captureIO();
    expect(await runCli(['delete-user', 'ghost', '--source', 'web, mobile', '--data', data], commas.io)).toBe(2);
    expect(commas.err()).toBe('hookbench delete-user: --source: no source named or with id "web, mobile"; the sources are "web" (name each source with its own --source: --source web --source mobile)\n');
    // With --json the refusal is one JSON line on stdout, as send's and import's are.
    const asJson = captureIO();
    expect(await runCli(['delete-user', 'ghost', '--data', data, '--json'], asJson.io)).toBe(2);
    expect(asJson.err()).toBe('');
    expect(JSON.parse(asJson.out())).toMatchObject({ type: 'error', code: 'not_found', field: 'userId', message: expect.stringContaining('no source has seen "ghost"') });
  });

  it('without a running serve it says where it looked; --data and --data-dir naming different dirs is a usage error', async () => {
    const cli = captureIO();
    const dir = newDataDir();
    expect(await runCli(['delete-user', 'u1', '--data-dir', dir], cli.io)).toBe(2);
    expect(cli.err()).toContain(`${join(dir, 'server.json')} does not exist`);
    expect(cli.err()).toContain('pass --data-dir DIR');
    const noServeJson = captureIO();
    expect(await runCli(['delete-user', 'u1', '--data-dir', dir, '--json'], noServeJson.io)).toBe(2);
    expect(JSON.parse(noServeJson.out())).toMatchObject({ type: 'error', code: 'usage', message: expect.stringContaining(`${join(dir, 'server.json')} does not exist`) });

    writeFileSync(join(dir, 'server.json'), JSON.stringify({ pid: 2 ** 22 + 12345, url: 'http://127.0.0.1:9', token: 't' }));
    const stale = captureIO();
    expect(await runCli(['delete-user', 'u1', '--data-dir', dir], stale.io)).toBe(2);
    expect(stale.err()).toContain(`names pid ${2 ** 22 + 12345}, which no longer runs`);

    const both = captureIO();
    expect(await runCli(['delete-user', 'u1', '--data', dir, '--data-dir', join(dir, 'other')], both.io)).toBe(2);
    expect(both.err()).toContain('name different data dirs');
  });
});
