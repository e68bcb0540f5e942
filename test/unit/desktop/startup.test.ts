import { describe, expect, it } from 'vitest';
import { parseDesktopArgs } from '../../../main/desktop/args.js';
import { menuTemplate } from '../../../main/desktop/menu.js';
import { chooseSecretCodec } from '../../../main/desktop/secrets.js';
import { decideLockedDataDir, type LockedDataDirFacts } from '../../../main/desktop/startup.js';
import type { ServerInfo } from '../../../main/server/workbench.js';
import { KEYCHAIN_TAG } from '../../../main/store/secretCodec.js';

const info: ServerInfo = { version: '0.1.0', pid: 4242, url: 'http://127.0.0.1:4400', uiUrl: 'http://127.0.0.1:4400/?token=t', port: 4400, token: 't', receiverUrl: null, receiverTlsUrl: null };
const facts = (over: Partial<LockedDataDirFacts>): LockedDataDirFacts => ({ dataDir: '/d', holderPid: 4242, info, isAlive: () => true, answers: true, ownPid: 1, ...over });

describe('decideLockedDataDir', () => {
  it('a live serve that holds the lock and answers: offer to attach', () => {
    expect(decideLockedDataDir(facts({}))).toMatchObject({ action: 'offerAttach', info });
    expect(decideLockedDataDir(facts({ holderPid: null }))).toMatchObject({ action: 'offerAttach' }); // lock unreadable: server.json decides
  });

  it.each([
    ['no server.json (a CLI run holds it)', { info: null }],
    ['server.json left by a dead serve', { isAlive: (pid: number) => pid !== 4242 }],
    ['server.json of another pid than the lock holder', { holderPid: 777 }],
    ['a serve that does not answer (yet)', { answers: false }],
    ['server.json naming this very process', { ownPid: 4242 }],
  ])('%s: offer to retry, naming the holder', (_name, over) => {
    const d = decideLockedDataDir(facts(over));
    expect(d.action).toBe('offerRetry');
    expect(d.message).toMatch(/in use by another Hookbench process( \(pid \d+\))?\./);
    expect(d.detail).toContain('/d');
  });
});

describe('desktop arguments', () => {
  it('takes serve\'s flags and ignores Chromium\'s switches and the script path', () => {
    expect(parseDesktopArgs(['--inspect=0', '--remote-debugging-port=0', 'dist/main/desktop/main.js', '--data', '/tmp/d', '--port', '0', '--config', 'c.json'])).toEqual({
      data: '/tmp/d',
      config: 'c.json',
      host: '127.0.0.1',
      port: 0,
      receiverPort: 4410,
      receiverTlsPort: 4443,
    });
    expect(parseDesktopArgs([])).toEqual({ host: '127.0.0.1', port: 4400, receiverPort: 4410, receiverTlsPort: 4443 });
    expect(parseDesktopArgs(['--data-dir', '/tmp/e']).data).toBe('/tmp/e');
    expect(() => parseDesktopArgs(['--port', 'x'])).toThrow('--port: must be a port from 0 to 65535 (got x)');
  });
});

describe('secrets codec choice', () => {
  const cipher = { encryptString: (s: string) => Buffer.from(s).reverse(), decryptString: (b: Buffer) => Buffer.from(b).reverse().toString() };
  it('encrypts with the keychain where safeStorage truly is available', () => {
    const chosen = chooseSecretCodec({ ...cipher, isEncryptionAvailable: () => true, getSelectedStorageBackend: () => 'gnome_libsecret' }, 'linux');
    expect(chosen.codec?.encrypt('s')).toMatch(new RegExp(`^${KEYCHAIN_TAG}`));
    expect(chooseSecretCodec({ ...cipher, isEncryptionAvailable: () => true }, 'darwin').codec).not.toBeNull();
  });
  it('keeps secrets as serve does when it is not, or when Linux has no keyring (basic_text protects nothing)', () => {
    expect(chooseSecretCodec({ ...cipher, isEncryptionAvailable: () => false }, 'win32')).toMatchObject({ codec: null, why: expect.stringContaining('0700') });
    expect(chooseSecretCodec({ ...cipher, isEncryptionAvailable: () => true, getSelectedStorageBackend: () => 'basic_text' }, 'linux')).toMatchObject({ codec: null, why: expect.stringContaining('keyring') });
  });
});

describe('menu', () => {
  const called: string[] = [];
  const actions = { openConfig: () => called.push('openConfig'), reload: () => called.push('reload'), openDocumentation: () => called.push('docs'), revealDataDir: () => called.push('reveal') };
  type Item = { id?: string; role?: string; label?: string; submenu?: Item[]; click?: () => void };
  const flat = (items: Item[]): Item[] => items.flatMap((i) => [i, ...flat(i.submenu ?? [])]);

  it('has the usual roles plus File → Open config… and Show data folder, View → Reload, Help → Documentation', () => {
    const items = flat(menuTemplate(actions, { platform: 'linux', dev: false }) as Item[]);
    const roles = items.map((i) => i.role).filter(Boolean);
    expect(roles).toEqual(expect.arrayContaining(['quit', 'editMenu', 'windowMenu', 'help', 'zoomIn', 'togglefullscreen']));
    expect(roles).not.toContain('toggleDevTools'); // DevTools only in development
    for (const id of ['open-config', 'reveal-data-dir', 'reload', 'documentation']) items.find((i) => i.id === id)!.click!();
    expect(called).toEqual(['openConfig', 'reveal', 'reload', 'docs']);
    expect(items.find((i) => i.id === 'open-config')!.label).toBe('Open config…');
    expect(items.find((i) => i.id === 'reveal-data-dir')!.label).toBe('Show data folder');
  });

  it('macOS gets the app menu; development gets DevTools', () => {
    const roles = flat(menuTemplate(actions, { platform: 'darwin', dev: true }) as Item[]).map((i) => i.role);
    expect(roles).toEqual(expect.arrayContaining(['appMenu', 'close', 'toggleDevTools']));
  });
});
