/**
 * The one place that decides how this window talks to the core: the preload bridge when the desktop app
 * provides one, otherwise HTTP + WebSocket to the server that served this page.
 */
import { createHttpTransport } from './httpTransport';
import { createIpcTransport } from './ipcTransport';
import { takeToken } from './token';
import type { Transport } from './transport';

export type TransportChoice = { ok: true; transport: Transport } | { ok: false; reason: 'no_token' };

export function chooseTransport(): TransportChoice {
  if (window.hookbench) return { ok: true, transport: createIpcTransport(window.hookbench) };
  const token = takeToken();
  if (!token) return { ok: false, reason: 'no_token' };
  const baseUrl = new URL('.', window.location.href).toString();
  return { ok: true, transport: createHttpTransport({ baseUrl, token }) };
}
