/**
 * The bridge's native capabilities: open a config, CA or import file, save an export, reveal the data dir,
 * open a link in the system browser. Electron's dialog and shell come in as parameters, so the checks on what
 * the renderer asks for are tested without Electron.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { basename } from 'node:path';
import type { OpenDialogOptions, OpenDialogReturnValue, SaveDialogOptions, SaveDialogReturnValue } from 'electron';
import { z } from 'zod';
import type { HookbenchBridge, OpenFilePurpose } from '../contract/bridge.js';
import { decodeUtf8 } from '../domain/utf8.js';
import { isExternalUrl } from './appPage.js';

export type NativeCapabilities = Pick<HookbenchBridge, 'openFile' | 'saveFile' | 'revealDataDir' | 'openExternal'>;

export interface NativeDeps {
  /** dialog.showOpenDialog / showSaveDialog, with the window as parent when there is one. */
  showOpenDialog(options: OpenDialogOptions): Promise<OpenDialogReturnValue>;
  showSaveDialog(options: SaveDialogOptions): Promise<SaveDialogReturnValue>;
  /** shell.openPath: resolves to an error message, '' on success. */
  openPath(path: string): Promise<string>;
  /** shell.openExternal */
  openExternal(url: string): Promise<void>;
  dataDir: string;
}

/** Files larger than this are not read into the renderer. */
export const MAX_OPEN_BYTES = 16 * 1024 * 1024;
export const MAX_SAVE_CHARS = 256 * 1024 * 1024;

const PURPOSES: Record<OpenFilePurpose, { title: string; filters: OpenDialogOptions['filters'] }> = {
  config: { title: 'Open a Hookbench config', filters: [{ name: 'Hookbench config', extensions: ['json', 'jsonc'] }, { name: 'All files', extensions: ['*'] }] },
  caFile: { title: 'Choose CA certificates to trust', filters: [{ name: 'Certificates', extensions: ['pem', 'crt', 'cer'] }, { name: 'All files', extensions: ['*'] }] },
  // An export is saved as .jsonl (JSON lines) or .har: the dialog's first filter must show both.
  import: { title: 'Import', filters: [{ name: 'JSON lines or HAR', extensions: ['jsonl', 'ndjson', 'json', 'har'] }, { name: 'All files', extensions: ['*'] }] },
};

// What the renderer sends is checked here, at the edge, like every other input.
export const openFileInput = z.strictObject({ purpose: z.enum(['config', 'caFile', 'import']), title: z.string().max(200).optional() });
export const saveFileInput = z.strictObject({ defaultName: z.string().min(1).max(255), content: z.string().max(MAX_SAVE_CHARS) });
export const externalUrlInput = z.string().max(8192).refine(isExternalUrl, 'only http and https links open in the system browser');

export function nativeCapabilities(deps: NativeDeps): NativeCapabilities {
  return {
    async openFile(options) {
      const { purpose, title } = openFileInput.parse(options);
      const chosen = await deps.showOpenDialog({ title: title ?? PURPOSES[purpose].title, filters: PURPOSES[purpose].filters, properties: ['openFile'] });
      const path = chosen.canceled ? undefined : chosen.filePaths[0];
      if (!path) return null;
      const { size } = await stat(path);
      if (size > MAX_OPEN_BYTES) throw new Error(`${basename(path)}: ${size} bytes is more than the ${MAX_OPEN_BYTES} this app reads`);
      // Read as 'utf8', a byte that is not UTF-8 would become U+FFFD and be imported or saved as such.
      const decoded = decodeUtf8(await readFile(path));
      if (!decoded.ok) throw new Error(`${basename(path)}: ${decoded.message}`);
      return { path, text: decoded.text };
    },
    async saveFile(options) {
      const { defaultName, content } = saveFileInput.parse(options);
      // A name only: the renderer does not choose the folder, the user does.
      const chosen = await deps.showSaveDialog({ defaultPath: basename(defaultName) });
      if (chosen.canceled || !chosen.filePath) return null;
      await writeFile(chosen.filePath, content, 'utf8');
      return { path: chosen.filePath };
    },
    async revealDataDir() {
      const error = await deps.openPath(deps.dataDir);
      if (error) throw new Error(`cannot open ${deps.dataDir}: ${error}`);
    },
    async openExternal(url) {
      await deps.openExternal(externalUrlInput.parse(url));
    },
  };
}
