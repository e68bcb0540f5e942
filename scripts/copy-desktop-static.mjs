// `npm run build`: tsc compiles the desktop shell (main.js, and preload.cjs from preload.cts); the pages it
// shows before the renderer exists are static files, copied here.
import { cpSync, existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const from = join(root, 'main', 'desktop', 'static');
if (existsSync(from)) cpSync(from, join(root, 'dist', 'main', 'desktop', 'static'), { recursive: true });
