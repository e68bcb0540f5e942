/**
 * `hookbench verify --secret S --signature HEX [--body @file | --body TEXT | stdin]`: checks an X-Signature
 * against the exact body bytes and, when it does not match, names the receiver mistake that explains it.
 */
import { diagnoseSignature } from '../../domain/signatureDiagnosis.js';
import { FILE_LIMITS } from '../../platform/boundedFile.js';
import { EXIT, readStdin, readTextOrFile, runCommand, UsageError, type CliIO } from '../io.js';

export interface VerifyOptions {
  secret: string;
  signature: string;
  /** Literal text, `@file` (its exact bytes) or `@-`; absent: stdin. */
  body?: string | undefined;
}

export async function runVerify(options: VerifyOptions, io: CliIO): Promise<number> {
  return runCommand(io, 'verify', async () => {
    // An HMAC with an empty key is still an HMAC: an empty --secret (a variable not set) would be diagnosed, never refused.
    if (options.secret === '') throw new UsageError("--secret is empty (is the variable you gave it set?): give the destination's shared secret");
    const body = options.body === undefined ? await readStdin(io, 'the body', FILE_LIMITS.data) : await readTextOrFile(options.body, io, '--body');
    // Nothing is signed over no bytes: an empty body is a file or pipe that had nothing in it, not a mistake to diagnose.
    if (body.byteLength === 0) throw new UsageError(`${options.body === undefined || options.body === '@-' ? 'the body on stdin' : `--body ${options.body}`} is empty (0 bytes): give the exact bytes your receiver got (--body @file, or on stdin)`);
    const d = diagnoseSignature({ secret: options.secret, body, signature: options.signature, computedByReceiver: true });
    if (d.matches) {
      io.stdout(`signature matches (HMAC-SHA1 over ${body.byteLength} bytes)\n`);
      return EXIT.ok;
    }
    io.stdout(
      [
        'signature does not match',
        `  given:     ${options.signature.trim()}`,
        `  expected:  ${d.expected}  (lowercase hex HMAC-SHA1 of the ${body.byteLength} body bytes)`,
        `  diagnosis: ${d.explanation}`,
        '',
      ].join('\n'),
    );
    return EXIT.failed;
  });
}
