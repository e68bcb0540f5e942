import { createHmac } from 'node:crypto';
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCore } from '../../../main/app/createCore.js';
import { HookbenchError } from '../../../main/contract/result.js';
import { KEYCHAIN_TAG, plainSecrets, taggedSecretCodec } from '../../../main/store/secretCodec.js';
import { must, newDataDir, newReceiver, onCleanup, settled } from '../../helpers/harness.js';

/** A stand-in for Electron's safeStorage: reversible, and visibly not the plain text. */
const fakeKeychain = {
  encryptString: (s: string) => Buffer.from([...Buffer.from(s, 'utf8')].map((b) => b ^ 0x5a)),
  decryptString: (b: Buffer) => Buffer.from([...b].map((x) => x ^ 0x5a)).toString('utf8'),
};
const keychain = taggedSecretCodec(fakeKeychain);

function rawRows(dataDir: string) {
  const db = new Database(join(dataDir, 'hookbench.db'), { readonly: true });
  try {
    return {
      destinationConfigs: db.prepare<[], { config: string }>('SELECT config FROM destinations').pluck().all() as unknown as string[],
      receiverSecrets: db.prepare<[], { secret: string | null }>('SELECT secret FROM receivers').pluck().all() as unknown as (string | null)[],
    };
  } finally {
    db.close();
  }
}

describe('secrets at rest (store/secretCodec)', () => {
  it('with a keychain codec, shared secrets and receiver secrets are stored encrypted, and used decrypted', async () => {
    const dataDir = newDataDir();
    const rx = await newReceiver();
    const core = createCore({ dataDir, seed: 42, secretCodec: keychain });
    onCleanup(() => core.close());
    must(core.createDestination({ name: 'd', enabled: true, url: rx.url, sharedSecret: 's3cret-dest' }));
    must(core.createReceiver({ name: 'orders', secret: 's3cret-rx' }));

    const raw = rawRows(dataDir);
    expect(raw.destinationConfigs.join()).not.toContain('s3cret-dest');
    expect(JSON.parse(raw.destinationConfigs[0]!).sharedSecret).toMatch(new RegExp(`^${KEYCHAIN_TAG}`));
    expect(raw.receiverSecrets).toEqual([expect.stringMatching(new RegExp(`^${KEYCHAIN_TAG}`))]);

    // the engine signs with the decrypted secret
    const id = must(core.sendMessage({ type: 'track', call: { userId: 'u1', event: 'E' }, destinations: ['d'] })).message.id;
    await settled(core, id);
    const [req] = rx.captured;
    expect(req!.headers['x-signature']).toBe(createHmac('sha1', 's3cret-dest').update(req!.body).digest('hex'));

    // and reads them back after a restart
    await core.close();
    const again = createCore({ dataDir, seed: 42, secretCodec: keychain });
    onCleanup(() => again.close());
    expect(again.findDestination('d')!.sharedSecret).toBe('s3cret-dest');
    expect(must(again.receivers.getReceiver({ name: 'orders' }))).toBeTruthy();
  });

  it('a plain reader (serve) refuses a data dir with encrypted secrets, says why, and leaves it unlocked', async () => {
    const dataDir = newDataDir();
    const core = createCore({ dataDir, seed: 42, secretCodec: keychain });
    must(core.createDestination({ name: 'd', url: 'http://127.0.0.1:9/hook', sharedSecret: 's3cret' }));
    await core.close();

    let thrown: unknown;
    try {
      createCore({ dataDir, seed: 42 });
    } catch (e) {
      thrown = e;
    }
    expect(thrown).toBeInstanceOf(HookbenchError);
    expect((thrown as HookbenchError).error.message).toMatch(/encrypted with the OS keychain by the Hookbench desktop app/);
    // the failed start released the lock: the desktop app's codec opens it
    const reopened = createCore({ dataDir, seed: 42, secretCodec: keychain });
    onCleanup(() => reopened.close());
    expect(reopened.findDestination('d')!.sharedSecret).toBe('s3cret');
  });

  it('plain secrets written before encryption stay readable, and are encrypted when next saved', async () => {
    const dataDir = newDataDir();
    const plain = createCore({ dataDir, seed: 42 });
    const d = must(plain.createDestination({ name: 'd', url: 'http://127.0.0.1:9/hook', sharedSecret: 'old-plain' }));
    await plain.close();
    expect(JSON.parse(rawRows(dataDir).destinationConfigs[0]!).sharedSecret).toBe('old-plain');

    const desktop = createCore({ dataDir, seed: 42, secretCodec: keychain });
    onCleanup(() => desktop.close());
    expect(desktop.findDestination('d')!.sharedSecret).toBe('old-plain');
    must(desktop.updateDestination({ id: d.id, patch: { timeoutMs: 4000 } }));
    expect(JSON.parse(rawRows(dataDir).destinationConfigs[0]!).sharedSecret).toMatch(new RegExp(`^${KEYCHAIN_TAG}`));
  });

  it('codecs: plain passes values through; tagged round-trips and names an undecryptable value', () => {
    expect(plainSecrets.decrypt(plainSecrets.encrypt('x'))).toBe('x');
    expect(keychain.decrypt(keychain.encrypt('ünïcødé'))).toBe('ünïcødé');
    const broken = taggedSecretCodec({
      encryptString: fakeKeychain.encryptString,
      decryptString: () => {
        throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.');
      },
    });
    expect(() => broken.decrypt(keychain.encrypt('x'))).toThrow(/cannot be decrypted with this user's OS keychain/);
  });
});
