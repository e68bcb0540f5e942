/**
 * Secrets at rest in the desktop app: encrypted with the OS keychain through Electron's safeStorage where it
 * is truly available. On Linux without a keyring, safeStorage falls back to a key hard-coded in Chromium
 * ('basic_text'): that protects nothing, so secrets then stay as `serve` keeps them, in the 0700 data dir.
 */
import type { SafeStorage } from 'electron';
import { taggedSecretCodec, type SecretCodec } from '../store/secretCodec.js';

export type SafeStorageLike = Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> & {
  getSelectedStorageBackend?: SafeStorage['getSelectedStorageBackend'];
};

export function chooseSecretCodec(safeStorage: SafeStorageLike, platform: NodeJS.Platform = process.platform): { codec: SecretCodec | null; why: string } {
  if (!safeStorage.isEncryptionAvailable()) return { codec: null, why: 'the OS keychain is not available: secrets are kept in the 0700 data dir' };
  if (platform === 'linux' && safeStorage.getSelectedStorageBackend?.() === 'basic_text') {
    return { codec: null, why: 'no keyring (gnome-libsecret or kwallet) is running: secrets are kept in the 0700 data dir' };
  }
  return { codec: taggedSecretCodec(safeStorage), why: 'secrets are encrypted with the OS keychain' };
}
