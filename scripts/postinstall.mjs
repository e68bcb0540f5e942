// After `npm install`: one line saying whether the desktop app can run here. It never fails the install.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

try {
  const { findElectron } = await import('./electron-binary.mjs');
  const electron = findElectron(join(dirname(fileURLToPath(import.meta.url)), '..'));
  if (!electron.binary) {
    console.log(`hookbench: the desktop app is unavailable (${electron.why}); \`npm start\` will run the browser UI instead.`);
  }
} catch (e) {
  console.log(`hookbench: could not check for Electron (${e instanceof Error ? e.message : String(e)}); \`npm start\` will say what it runs.`);
}
