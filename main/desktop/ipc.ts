/**
 * The renderer's way in: one `ipcMain.handle` for every command, through the same dispatch HTTP uses, and one
 * per native capability. Every handler first checks that the sender is the app's own page in the window's
 * main frame (HTTP Toolkit's lesson) and refuses anything else: a command with an error value, a native
 * capability with a rejected promise. Pushed events go to the window in batches (server/eventBatcher).
 */
import type { IpcMain, WebContents } from 'electron';
import { dispatch, type CommandHandlers } from '../contract/dispatch.js';
import { EVENT_BATCHING, type EngineEvent } from '../contract/events.js';
import type { Result } from '../contract/result.js';
import { maskEvent } from '../domain/secrets.js';
import { createEventBatcher } from '../server/eventBatcher.js';
import { isAppUrl, type AppPage } from './appPage.js';
import { CHANNELS } from './channels.js';
import type { NativeCapabilities } from './native.js';

/** What the checks read of an invoke event (a fake in tests). */
export type SenderEvent = {
  senderFrame: { url: string; parent: unknown } | null;
};

/** What registration uses of ipcMain (Electron's, or the in-memory fake of the tests). */
export interface IpcMainLike {
  handle(channel: string, listener: (event: SenderEvent, ...args: unknown[]) => unknown): void;
  removeHandler: IpcMain['removeHandler'];
}

export interface IpcOptions {
  ipcMain: IpcMainLike;
  /** The page allowed to call (read per call). */
  page: () => AppPage;
  handlers: CommandHandlers;
  native: NativeCapabilities;
}

/** Why a sender is refused, or null when it is the app's own page in a main frame. */
export function senderRefusal(event: SenderEvent, page: AppPage): string | null {
  const frame = event.senderFrame;
  if (!frame) return 'the sending frame is gone (navigated or destroyed)';
  if (frame.parent) return 'calls are accepted from the main frame only';
  if (!isAppUrl(page, frame.url)) return `calls are accepted from the app's own page only (not ${frame.url})`;
  return null;
}

/** Registers the handlers; returns the function that removes them. */
export function registerIpc(options: IpcOptions): () => void {
  const { ipcMain, native } = options;

  ipcMain.handle(CHANNELS.call, async (event: SenderEvent, name: unknown, input: unknown): Promise<Result<unknown>> => {
    const refusal = senderRefusal(event, options.page());
    if (refusal) return { ok: false, error: { code: 'unauthorized', message: refusal } };
    return dispatch(options.handlers, name as string, input); // dispatch refuses a name that is not a command
  });

  // Native capabilities validate what they are given themselves (native.ts, zod): the renderer is untrusted.
  const checked =
    (fn: (...args: unknown[]) => Promise<unknown>) =>
    (event: SenderEvent, ...args: unknown[]): Promise<unknown> => {
      const refusal = senderRefusal(event, options.page());
      return refusal ? Promise.reject(new Error(`refused: ${refusal}`)) : fn(...args);
    };
  ipcMain.handle(CHANNELS.openFile, checked((o) => native.openFile(o as Parameters<NativeCapabilities['openFile']>[0])));
  ipcMain.handle(CHANNELS.saveFile, checked((o) => native.saveFile(o as Parameters<NativeCapabilities['saveFile']>[0])));
  ipcMain.handle(CHANNELS.revealDataDir, checked(() => native.revealDataDir()));
  ipcMain.handle(CHANNELS.openExternal, checked((url) => native.openExternal(url as string)));

  return () => {
    for (const channel of [CHANNELS.call, CHANNELS.openFile, CHANNELS.saveFile, CHANNELS.revealDataDir, CHANNELS.openExternal]) ipcMain.removeHandler(channel);
  };
}

export interface EventPushOptions {
  /** core.onEvent */
  subscribe(listener: (event: EngineEvent) => void): () => void;
  contents: Pick<WebContents, 'send' | 'isDestroyed'>;
  flushMs?: number;
  maxPerFlush?: number;
}

/** Forwards the core's events to the window in batches, secrets masked as over HTTP, until disposed. */
export function pushEvents(options: EventPushOptions): () => void {
  const { contents } = options;
  const batcher = createEventBatcher({
    flushMs: options.flushMs ?? EVENT_BATCHING.flushMs,
    maxPerFlush: options.maxPerFlush ?? EVENT_BATCHING.maxPerFlush,
    send(frame) {
      if (!contents.isDestroyed()) contents.send(CHANNELS.events, frame);
    },
  });
  const unsubscribe = options.subscribe((event) => batcher.push(maskEvent(event)));
  return () => {
    unsubscribe();
    batcher.close();
  };
}
