/**
 * Certificates for local HTTPS listeners, generated with a maintained library (selfsigned), never by hand.
 * The library (with its X.509 stack, slow to load) is loaded on the first certificate, not with the core:
 * most runs (`hookbench send`, a serve without a TLS receiver) never make one.
 */

export interface KeyPairPem {
  key: string;
  cert: string;
}

/** A self-signed server certificate for localhost and 127.0.0.1 / ::1, valid for ten years. */
export async function generateSelfSigned(commonName = 'Hookbench local receiver'): Promise<KeyPairPem> {
  const notBeforeDate = new Date(Date.now() - 24 * 3_600_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + 3650 * 24 * 3_600_000);
  const { generate } = await import('selfsigned');
  const pems = await generate([{ name: 'commonName', value: commonName }], {
    keySize: 2048,
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: true },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, keyCertSign: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
