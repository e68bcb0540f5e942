// Renders build/icon.svg into the PNGs packaging uses: build/icon.png (1024 px; electron-builder derives the
// macOS .icns and the Windows .ico from it) and build/icons/<n>x<n>.png (Linux). Needs rsvg-convert
// (Debian/Ubuntu: apt-get install librsvg2-bin; macOS: brew install librsvg). The PNGs are committed: run this
// only after changing the SVG.
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const build = join(dirname(fileURLToPath(import.meta.url)), '..', 'build');
const svg = join(build, 'icon.svg');
const render = (size, out) => execFileSync('rsvg-convert', ['--width', String(size), '--height', String(size), '--format', 'png', '--output', out, svg]);

mkdirSync(join(build, 'icons'), { recursive: true });
render(1024, join(build, 'icon.png'));
for (const size of [16, 24, 32, 48, 64, 128, 256, 512, 1024]) render(size, join(build, 'icons', `${size}x${size}.png`));
console.log(`icons written to ${build}`);
