// Where the Electron binary is, or why there is none. Read from node_modules/electron's own files, never by
// requiring 'electron' (which throws when the binary was not downloaded).
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** @returns {{ binary: string, version: string } | { binary: null, version: string | null, why: string }} */
export function findElectron(root, env = process.env) {
  const dir = join(root, 'node_modules', 'electron');
  let version = null;
  try {
    version = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return { binary: null, version, why: 'the electron package is not installed' };
  }
  const pathFile = join(dir, 'path.txt');
  if (!existsSync(pathFile)) {
    const why = env.ELECTRON_SKIP_BINARY_DOWNLOAD
      ? 'its download was skipped (ELECTRON_SKIP_BINARY_DOWNLOAD is set)'
      : 'it was not downloaded (no network, or ELECTRON_SKIP_BINARY_DOWNLOAD was set when npm install ran)';
    return { binary: null, version, why: `no Electron ${version} binary is installed: ${why}` };
  }
  const binary = join(dir, 'dist', readFileSync(pathFile, 'utf8').trim());
  if (!existsSync(binary)) return { binary: null, version, why: `the Electron binary ${binary} is missing` };
  return { binary, version };
}
