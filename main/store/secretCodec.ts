/**
 * How secrets (destinations' shared secrets, receivers' secrets) are kept at rest. `hookbench serve` keeps
 * them as they are, in the 0700 data dir (plainSecrets); the desktop app encrypts them with the OS keychain
 * (Electron's safeStorage, wired in main/desktop) through taggedSecretCodec.
 *
 * An encrypted value carries a tag, so plain values written earlier stay readable (and are encrypted the next
 * time they are saved), and a reader that cannot decrypt says so instead of signing with the wrong secret.
 */
import { HookbenchError } from '../contract/result.js';

export interface SecretCodec {
  /** The value to store for a secret. */
  encrypt(secret: string): string;
  /** The secret a stored value holds; throws a HookbenchError when this codec cannot read it. */
  decrypt(stored: string): string;
}

/** Prefix of values encrypted with the OS keychain (Electron safeStorage), then base64. */
export const KEYCHAIN_TAG = 'hookbench-keychain:v1:';

export const isKeychainEncrypted = (stored: string): boolean => stored.startsWith(KEYCHAIN_TAG);

const unreadable = () =>
  new HookbenchError({
    code: 'conflict',
    message:
      'this data dir holds secrets encrypted with the OS keychain by the Hookbench desktop app, which only that app can read; ' +
      'open it with the desktop app, or use another data dir (--data DIR)',
  });

/** Secrets stored as given (serve, the CLI, tests). */
export const plainSecrets: SecretCodec = {
  encrypt: (secret) => secret,
  decrypt(stored) {
    if (isKeychainEncrypted(stored)) throw unreadable();
    return stored;
  },
};

/** A codec over a byte cipher such as Electron's safeStorage (encryptString / decryptString). */
export function taggedSecretCodec(cipher: { encryptString(plain: string): Buffer; decryptString(encrypted: Buffer): string }): SecretCodec {
  return {
    encrypt: (secret) => KEYCHAIN_TAG + cipher.encryptString(secret).toString('base64'),
    decrypt(stored) {
      if (!isKeychainEncrypted(stored)) return stored; // written before encryption was available: plain
      try {
        return cipher.decryptString(Buffer.from(stored.slice(KEYCHAIN_TAG.length), 'base64'));
      } catch (e) {
        throw new HookbenchError({
          code: 'conflict',
          message: `a stored secret cannot be decrypted with this user's OS keychain (${(e as Error).message}); re-enter the secret`,
        });
      }
    },
  };
}

/** Applies a codec to a nullable secret. */
export const encryptNullable = (codec: SecretCodec, s: string | null | undefined): string | null => (s == null ? null : codec.encrypt(s));
export const decryptNullable = (codec: SecretCodec, s: string | null | undefined): string | null => (s == null ? null : codec.decrypt(s));
