/**
 * The receiver's HTTPS identity: a self-signed certificate generated on first run and kept in the data dir
 * (`<data>/receiver-tls/{key,cert}.pem`, mode 0600), so the same certificate is presented on every start
 * and a user can point a destination's `caFile` at it on purpose.
 */
import { createPrivateKey, X509Certificate } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateSelfSigned } from '../certificates.js';

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

function load(keyFile: string, certFile: string, now: number): { key: string; cert: string; fingerprint256: string } | null {
  try {
    const key = readFileSync(keyFile, 'utf8');
    const cert = readFileSync(certFile, 'utf8');
    const x509 = new X509Certificate(cert);
    if (Date.parse(x509.validTo) - RENEW_BEFORE_MS < now) return null;
    if (!x509.checkPrivateKey(createPrivateKey(key))) return null;
    return { key, cert, fingerprint256: x509.fingerprint256 };
  } catch {
    return null; // missing, unreadable or not a certificate pair: make a new one
  }
}

function writePrivate(file: string, text: string): void {
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, text, { mode: 0o600 });
  if (process.platform !== 'win32') chmodSync(tmp, 0o600);
  renameSync(tmp, file);
}
