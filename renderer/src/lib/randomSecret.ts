/** Hex from Web Crypto: a shared secret for a new destination (32 hex characters, 128 bits). */
export function generateSecret(bytes = 16): string {
  const buffer = new Uint8Array(bytes);
  crypto.getRandomValues(buffer);
  return [...buffer].map((b) => b.toString(16).padStart(2, '0')).join('');
}
