/**
 * The desktop app's main process: lifecycle only. It runs the same workbench as `hookbench serve` (core,
 * ingestion API, mock receiver, server.json) on the user's data dir, or attaches to the serve that holds it,
 * and shows it in one hardened window. Everything it wires is in the files beside it, tested with fakes.
 */
import { app, BrowserWindow, dialog, ipcMain, Menu, safeStorage, session as electronSession, shell } from 'electron';
import { existsSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureDataDir, resolveDataDir } from '../app/dataDir.js';
import { applyConfigFile, findUiDir } from '../server/workbench.js';
import type { AppPage } from './appPage.js';
import { parseDesktopArgs, type DesktopArgs } from './args.js';
import { registerIpc, pushEvents } from './ipc.js';
import { menuTemplate } from './menu.js';
import { nativeCapabilities } from './native.js';
import { chooseSecretCodec } from './secrets.js';
import { openSession, type Answer, type DesktopSession } from './session.js';
import type { LockedDataDirDecision } from './startup.js';
import { hardenContents, hardenSession, windowOptions } from './window.js';

const here = dirname(fileURLToPath(import.meta.url)); // dist/main/desktop
const root = projectRoot(here); // the project (or app.asar)
const dev = !app.isPackaged;

let args: DesktopArgs;
try {
  args = parseDesktopArgs(process.argv.slice(app.isPackaged ? 1 : 2));
} catch (e) {
  console.error(`hookbench: ${(e as Error).message}`);
  app.exit(2);
  throw e;
}
const dataDir = resolveDataDir(args.data);
ensureDataDir(dataDir);
// Chromium's own files live beside the data, and the single-instance lock is per data dir: a second app on
// the same data dir focuses the first, one on another data dir runs.
mkdirSync(join(dataDir, 'electron'), { recursive: true, mode: 0o700 });
app.setName('Hookbench');
app.setPath('userData', join(dataDir, 'electron'));
app.enableSandbox();

let current: DesktopSession | null = null;
let mainWindow: BrowserWindow | null = null;
/** Matches nothing until the session is open. */
const NO_PAGE: AppPage = { kind: 'file', url: 'file:///hookbench-no-page-yet' };
const page = () => current?.page ?? NO_PAGE;
const openExternal = (url: string) => void shell.openExternal(url).catch((e: unknown) => console.error('hookbench: cannot open', url, e));

app.on('web-contents-created', (_event, contents) => hardenContents(contents, page, openExternal, dev));

if (!app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  app.whenReady().then(start).catch(fail);
}

async function ask(decision: LockedDataDirDecision): Promise<Answer> {
  const attach = decision.action === 'offerAttach';
  const { response } = await dialog.showMessageBox({
    type: 'question',
    title: 'Hookbench',
    message: decision.message,
    detail: decision.detail,
    buttons: [attach ? 'Attach' : 'Retry', 'Quit'],
    defaultId: 0,
    cancelId: 1,
  });
  if (response === 1) return 'quit';
  return attach ? 'attach' : 'retry';
}

async function start(): Promise<void> {
  const secrets = chooseSecretCodec(safeStorage);
  console.error(`hookbench: ${secrets.why}`);
  const uiDir = findUiDir();
  current = await openSession({
    workbench: {
      dataDir,
      config: args.config,
      host: args.host,
      port: args.port,
      receiverPort: args.receiverPort,
      receiverTlsPort: args.receiverTlsPort,
      busyPorts: 'pickFree',
      core: { secretCodec: secrets.codec ?? undefined },
      log: (line) => console.error(`hookbench: ${line}`),
      // e.g. the database file deleted under the app: writes are refused from then on; say it once, visibly
      problem: (message) => {
        console.error(`hookbench: ${message}`);
        void dialog.showMessageBox({ type: 'error', title: 'Hookbench', message: 'Hookbench cannot keep changes any more.', detail: message });
      },
    },
    indexFile: uiDir ? join(uiDir, 'index.html') : join(here, 'static', 'placeholder.html'),
    ask,
  });
  if (!current) return app.quit();
  if (current.mode === 'own') {
    console.error(`Hookbench ready: ${current.workbench.info.uiUrl} (data dir ${dataDir})`);
    registerIpc({
      ipcMain,
      page,
      handlers: current.workbench.handlers,
      native: nativeCapabilities({
        showOpenDialog: (o) => (mainWindow ? dialog.showOpenDialog(mainWindow, o) : dialog.showOpenDialog(o)),
        showSaveDialog: (o) => (mainWindow ? dialog.showSaveDialog(mainWindow, o) : dialog.showSaveDialog(o)),
        openPath: (p) => shell.openPath(p),
        openExternal: (url) => shell.openExternal(url),
        dataDir,
      }),
    });
  } else {
    console.error(`hookbench: attached to hookbench serve (pid ${current.info.pid}) at ${current.info.url}`);
  }

  hardenSession(electronSession.defaultSession, page);
  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      menuTemplate(
        {
          openConfig: () => void openConfig(),
          reload: () => mainWindow?.webContents.reload(),
          openDocumentation: () => void shell.openPath(join(root, 'README.md').replace(/app\.asar([\\/])/, 'app.asar.unpacked$1')),
          revealDataDir: () => void shell.openPath(dataDir),
        },
        { platform: process.platform, dev },
      ),
    ),
  );
  createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) createWindow();
  });
}

function createWindow(): void {
  if (!current) return;
  const own = current.mode === 'own' ? current : null;
  const icon = join(root, 'build', 'icons', '512x512.png');
  const win = new BrowserWindow(windowOptions({ preload: own ? join(here, 'preload.cjs') : null, dev, ...(existsSync(icon) ? { icon } : {}) }));
  mainWindow = win;
  win.once('ready-to-show', () => win.show());
  if (own) {
    // Closing the window stops the pushes only: the core keeps forwarding until the app quits.
    const stopPushing = pushEvents({ subscribe: (listener) => own.workbench.core.onEvent(listener), contents: win.webContents });
    win.on('closed', stopPushing);
  }
  win.on('closed', () => {
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(current.page.url);
}

async function openConfig(): Promise<void> {
  if (!current) return;
  if (current.mode === 'attached') {
    await dialog.showMessageBox({
      type: 'info',
      message: `This window is attached to hookbench serve (pid ${current.info.pid}).`,
      detail: 'A config is applied by the process that owns the data dir: restart that serve with --config FILE.',
    });
    return;
  }
  const { core } = current.workbench;
  const chosen = await (mainWindow
    ? dialog.showOpenDialog(mainWindow, { title: 'Open a Hookbench config', filters: [{ name: 'Hookbench config', extensions: ['json', 'jsonc'] }], properties: ['openFile'] })
    : dialog.showOpenDialog({ title: 'Open a Hookbench config', filters: [{ name: 'Hookbench config', extensions: ['json', 'jsonc'] }], properties: ['openFile'] }));
  const file = chosen.canceled ? undefined : chosen.filePaths[0];
  if (!file) return;
  try {
    const { created, updated } = applyConfigFile(core, file);
    await dialog.showMessageBox({ type: 'info', message: `Config applied: ${created.length} created, ${updated.length} updated.`, detail: [...created, ...updated].join('\n') });
    mainWindow?.webContents.reload(); // the page reads the new objects
  } catch (e) {
    await dialog.showMessageBox({ type: 'error', message: 'The config was not applied (nothing of it was).', detail: (e as Error).message });
  }
}

// Quitting finishes in-flight work: the server stops accepting, rounds in flight are recorded, server.json goes.
let stopped = false;
let stopping = false;
app.on('before-quit', (event) => {
  if (stopped || current?.mode !== 'own') return;
  event.preventDefault();
  if (stopping) return;
  stopping = true;
  current.workbench
    .stop()
    .catch((e: unknown) => console.error('hookbench: stopping failed', e))
    .finally(() => {
      stopped = true;
      app.quit();
    });
});
app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => app.quit());

/**
 * The folder holding package.json above `from`: dist/main/desktop in a build or app.asar, main/desktop when run
 * from source (the tests), so that Help → Documentation and the icon are found either way.
 */
function projectRoot(from: string): string {
  // Three levels at most, the depth of dist/main/desktop: never a package.json of some folder above the app.
  for (let dir = from, level = 0; level <= 3; dir = dirname(dir), level++) {
    if (existsSync(join(dir, 'package.json'))) return dir;
  }
  return join(from, '..', '..', '..');
}

function fail(e: unknown): void {
  const message = e instanceof Error ? e.message : String(e);
  console.error(`hookbench: ${message}`);
  dialog.showErrorBox('Hookbench cannot start', message);
  app.exit(1);
}
