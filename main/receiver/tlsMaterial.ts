/**
 * The receiver's HTTPS identity: a self-signed certificate generated on first run and kept in the data dir
 * (`<data>/receiver-tls/{key,cert}.pem`, mode 0600), so the same certificate is presented on every start
 * and a user can point a destination's `caFile` at it on purpose.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { FILE_LIMITS, FileReadError, readBoundedText } from '../platform/boundedFile.js';
import { generateSelfSigned } from './certificates.js';

export interface ReceiverTls {
  key: string;
  cert: string;
  keyFile: string;
  certFile: string;
  /** SHA-256 fingerprint, `AB:CD:...`. */
  fingerprint256: string;
  /** Whether this call generated it (false: loaded from the data dir). */
  generated: boolean;
}

export const TLS_DIR = 'receiver-tls';
/** A certificate this close to expiry is replaced. */
const RENEW_BEFORE_MS = 24 * 3_600_000;

/** Loads the certificate pair from the data dir, or generates and stores a new one when it is missing or unusable. */
export async function ensureReceiverTls(dataDir: string, now: () => number = Date.now): Promise<ReceiverTls> {
  const dir = join(dataDir, TLS_DIR);
  const keyFile = join(dir, 'key.pem');
  const certFile = join(dir, 'cert.pem');
  const loaded = load(keyFile, certFile, now());
  if (loaded) return { ...loaded, keyFile, certFile, generated: false };

  const pair = await generateSelfSigned('Hookbench local receiver');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') chmodSync(dir, 0o700);
  // Key first, each written whole then renamed: a crash never leaves a half-written file to be loaded.
  writePrivate(keyFile, pair.key);
  writePrivate(certFile, pair.cert);
  return { ...pair, keyFile, certFile, fingerprint256: new X509Certificate(pair.cert).fingerprint256, generated: true };
}

/** The receiver's TLS files cannot be used or replaced (e.g. one is a directory): says which, and what to do. */
export class ReceiverTlsError extends Error {}

/** The file's text; null when it does not exist. Anything but a regular file within the size limit is refused. */
function readTlsFile(file: string): string | null {
  try {
    return readBoundedText(file, FILE_LIMITS.tlsMaterial);
  } catch (e) {
    if (e instanceof FileReadError && e.why === 'does not exist') return null;
    const why = e instanceof FileReadError ? e.message : `${file}: ${String(e)}`;
    throw new ReceiverTlsError(`the receiver's TLS material cannot be used: ${why}. Remove it and start again: a new certificate pair is made.`);
  }
}

function load(keyFile: string, certFile: string, now: number): { key: string; cert: string; fingerprint256: string } | null {
  const key = readTlsFile(keyFile);
  const cert = readTlsFile(certFile);
  if (key === null || cert === null) return null;
  try {
    const x509 = new X509Certificate(cert);
    if (Date.parse(x509.validTo) - RENEW_BEFORE_MS < now) return null;
    if (!x509.checkPrivateKey(createPrivateKey(key))) return null;
    return { key, cert, fingerprint256: x509.fingerprint256 };
  } catch {
    return null; // not a certificate pair, or expiring: make a new one
  }
}

function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, text, { mode: 0o600 });
    if (process.platform !== 'win32') chmodSync(tmp, 0o600);
    renameSync(tmp, file);
  } catch (e) {
    // Never leave a private key behind under a temporary name.
    rmSync(tmp, { force: true });
    throw new ReceiverTlsError(`cannot write the receiver's TLS material to ${file} (${(e as NodeJS.ErrnoException).code ?? String(e)}). Remove what is in the way and start again.`);
  }
}
