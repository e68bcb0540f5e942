/**
 * The workbench of `npm run bench -- --only first-screen`, forked by bench/firstScreen.ts: startWorkbench,
 * what `hookbench serve` runs, with its UI served from the folder the bench prepared (the built renderer and
 * the hand-written page beside it), so both pages come from the same server. It says `ready` with its
 * server.json over IPC and stops when asked.
 */
import { startWorkbench } from '../main/server/workbench.js';

const [dataDir, uiDir] = process.argv.slice(2);
if (!dataDir || !uiDir || !process.send) throw new Error('usage: fork firstScreenServe.js <data dir> <ui dir> (with an IPC channel)');

const running = await startWorkbench({ dataDir, uiDir, host: '127.0.0.1', port: 0, receiverPort: 0, receiverTlsPort: 0 });
process.on('message', (m: unknown) => {
  if ((m as { type?: string } | null)?.type !== 'stop') return;
  void running.stop().then(() => process.exit(0));
});
process.send({ type: 'ready', info: running.info });
