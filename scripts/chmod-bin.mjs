// The CLI entry is emitted by tsc without the executable bit; npm links it as `hookbench`.
import { chmodSync, existsSync } from 'node:fs';
const bin = new URL('../dist/main/cli.js', import.meta.url);
if (existsSync(bin)) chmodSync(bin, 0o755);
