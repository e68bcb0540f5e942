import { once } from 'node:events';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { readServerInfo, startWorkbench } from '../../../main/server/workbench.js';
import { newDataDir, onCleanup } from '../../helpers/harness.js';

/** A port some other program holds. */
async function takenPort(): Promise<number> {
  const blocker = createServer();
  blocker.listen(0, '127.0.0.1');
  await once(blocker, 'listening');
  onCleanup(() => new Promise<void>((resolve) => blocker.close(() => resolve())));
  return (blocker.address() as AddressInfo).port;
}

describe('startWorkbench (what serve and the desktop app run)', () => {
  it('busy ports: serve fails naming the port; the desktop app listens on free ones instead and says so', async () => {
    const port = await takenPort();
    const base = { host: '127.0.0.1', port, receiverPort: port, receiverTlsPort: 0, uiDir: null };
    await expect(startWorkbench({ dataDir: newDataDir(), ...base, busyPorts: 'fail' })).rejects.toThrow(new RegExp(`${port}.*in use`));

    const lines: string[] = [];
    const dataDir = newDataDir();
    const running = await startWorkbench({ dataDir, ...base, busyPorts: 'pickFree', log: (l) => lines.push(l) });
    onCleanup(() => running.stop());
    expect(running.info.port).not.toBe(port);
    expect(new URL(running.info.receiverUrl!).port).not.toBe(String(port));
    expect(lines).toEqual([expect.stringMatching(/the mock receiver listens on free ports instead$/), expect.stringMatching(/the API listens on a free port instead$/)]);
    expect(readServerInfo(dataDir)).toEqual(running.info);
    await running.stop();
    expect(readServerInfo(dataDir)).toBeNull();
  });
});
