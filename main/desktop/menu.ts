/** The application menu as data: the usual roles plus File → Open config…, View → Reload, Help → Documentation. */
import type { MenuItemConstructorOptions } from 'electron';

export interface MenuActions {
  openConfig(): void;
  reload(): void;
  openDocumentation(): void;
  revealDataDir(): void;
}

export function menuTemplate(actions: MenuActions, options: { platform: NodeJS.Platform; dev: boolean }): MenuItemConstructorOptions[] {
  const mac = options.platform === 'darwin';
  return [
    ...(mac ? [{ role: 'appMenu' } as const] : []),
    {
      label: '&File',
      submenu: [
        { id: 'open-config', label: 'Open config…', accelerator: 'CmdOrCtrl+O', click: () => actions.openConfig() },
        { id: 'reveal-data-dir', label: 'Show data folder', click: () => actions.revealDataDir() },
        { type: 'separator' },
        mac ? { role: 'close' } : { role: 'quit' },
      ],
    },
    { role: 'editMenu' },
    {
      label: '&View',
      submenu: [
        { id: 'reload', label: 'Reload', accelerator: 'CmdOrCtrl+R', click: () => actions.reload() },
        ...(options.dev ? [{ role: 'toggleDevTools' } as const] : []),
        { type: 'separator' },
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
      ],
    },
    { role: 'windowMenu' },
    {
      role: 'help',
      submenu: [{ id: 'documentation', label: 'Documentation', click: () => actions.openDocumentation() }],
    },
  ];
}
