/**
 * The desktop app's own flags (`npm start -- --data-dir DIR --config FILE --port 0`), the same names `serve`
 * takes. Chromium's and Electron's switches in argv are ignored.
 */
import { parseArgs } from 'node:util';

export interface DesktopArgs {
  data?: string;
  config?: string;
  host: string;
  port: number;
  receiverPort: number;
  receiverTlsPort: number;
}

export const DEFAULT_PORTS = { port: 4400, receiverPort: 4410, receiverTlsPort: 4443 } as const;

function port(value: string | undefined, fallback: number, flag: string): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0 || n > 65535) throw new Error(`--${flag}: must be a port from 0 to 65535 (got ${value})`);
  return n;
}

/** `argv` without the executable and script (process.argv.slice(app.isPackaged ? 1 : 2)). */
export function parseDesktopArgs(argv: readonly string[]): DesktopArgs {
  const { values } = parseArgs({
    args: [...argv],
    strict: false,
    allowPositionals: true,
    options: {
      'data-dir': { type: 'string' },
      data: { type: 'string' }, // the older name of --data-dir
      config: { type: 'string' },
      host: { type: 'string' },
      port: { type: 'string' },
      'receiver-port': { type: 'string' },
      'receiver-tls-port': { type: 'string' },
    },
  });
  const str = (k: string) => (typeof values[k] === 'string' ? (values[k] as string) : undefined);
  return {
    ...((str('data-dir') ?? str('data')) ? { data: (str('data-dir') ?? str('data'))! } : {}),
    ...(str('config') ? { config: str('config')! } : {}),
    host: str('host') ?? '127.0.0.1',
    port: port(str('port'), DEFAULT_PORTS.port, 'port'),
    receiverPort: port(str('receiver-port'), DEFAULT_PORTS.receiverPort, 'receiver-port'),
    receiverTlsPort: port(str('receiver-tls-port'), DEFAULT_PORTS.receiverTlsPort, 'receiver-tls-port'),
  };
}
