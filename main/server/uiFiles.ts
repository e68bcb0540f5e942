/**
 * The UI at /: the built renderer's files (pre-compressed when the browser accepts it, hashed assets cached
 * for a year) under a content security policy, or a placeholder page when the UI is not built.
 */
import { readFile, stat } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { acceptsEncoding, sendText } from './responses.js';

const MIME: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.json': 'application/json',
  '.woff2': 'font/woff2',
};

const CSP = "default-src 'self'; connect-src 'self' ws: wss:; img-src 'self' data:; style-src 'self' 'unsafe-inline'; script-src 'self'; frame-ancestors 'none'";

export async function serveUi(req: IncomingMessage, res: ServerResponse, path: string, uiDir: string | null): Promise<void> {
  if (!uiDir) {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'content-security-policy': CSP }).end(PLACEHOLDER);
    return;
  }
  let decoded: string;
  try {
    decoded = path === '/' ? '/index.html' : decodeURIComponent(path);
  } catch {
    return sendText(res, 400, 'Bad request: the path has a malformed %-escape.'); // was an uncaught URIError: 500
  }
  const relative = normalize(decoded).replace(/^(\.\.[/\\])+/, '');
  const file = join(uiDir, relative);
  if (!file.startsWith(uiDir)) return sendText(res, 404, 'Not found');
  // Client-side routes fall back to the app.
  if (!(await sendUiFile(req, res, file)) && !(await sendUiFile(req, res, join(uiDir, 'index.html')))) sendText(res, 404, 'Not found');
}

/** Encodings the build holds beside each text asset (renderer/vite.config.ts), best first. */
const PRECOMPRESSED = [
  { encoding: 'br', suffix: '.br' },
  { encoding: 'gzip', suffix: '.gz' },
] as const;

/**
 * Sends one file of the UI, pre-compressed when the browser accepts it. Files under assets/ carry a content hash
 * in their names, so they never change: cached for a year. index.html names them, so it is always revalidated.
 */
async function sendUiFile(req: IncomingMessage, res: ServerResponse, file: string): Promise<boolean> {
  const type = MIME[extname(file)] ?? 'application/octet-stream';
  const cache = /[\\/]assets[\\/]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';
  const headers: Record<string, string> = { 'content-type': type, 'content-security-policy': CSP, 'cache-control': cache, vary: 'accept-encoding' };
  for (const { encoding, suffix } of PRECOMPRESSED) {
    if (!acceptsEncoding(req.headers['accept-encoding'], encoding)) continue;
    const content = await uiFileContent(`${file}${suffix}`);
    if (content) {
      res.writeHead(200, { ...headers, 'content-encoding': encoding, 'content-length': String(content.length) }).end(content);
      return true;
    }
  }
  const content = await uiFileContent(file);
  if (!content) return false;
  res.writeHead(200, { ...headers, 'content-length': String(content.length) }).end(content);
  return true;
}

/** The files read so far, each with the size and time of change it was read at. */
const contents = new Map<string, { size: number; mtimeMs: number; content: Buffer }>();

/**
 * A UI file's bytes, read once and shared by every response while the file is unchanged. A response waiting
 * for a client that does not read holds its body: read afresh each time, 1,000 connections each asking for
 * the editor's script twenty times and reading nothing held a copy per request, gigabytes that stayed.
 */
export async function uiFileContent(file: string): Promise<Buffer | null> {
  const now = await stat(file).catch(() => null);
  if (!now?.isFile()) return null;
  const known = contents.get(file);
  if (known && known.size === now.size && known.mtimeMs === now.mtimeMs) return known.content;
  const content = await readFile(file).catch(() => null);
  if (content) contents.set(file, { size: now.size, mtimeMs: now.mtimeMs, content });
  else contents.delete(file);
  return content;
}

const PLACEHOLDER = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Hookbench</title>
<style>body{font:15px/1.5 system-ui,sans-serif;max-width:44rem;margin:3rem auto;padding:0 1rem;color:#1d2330}code{background:#eef1f6;padding:.1rem .3rem;border-radius:4px}li{margin:.3rem 0}</style>
</head><body>
<h1>Hookbench is running</h1>
<p>The graphical interface is not part of this version yet. Everything it will show is already here:</p>
<ul>
<li>Point your SDKs at the ingestion API: <code>POST /v1/batch</code> with your source's write key.</li>
<li>Use the typed API, <code>POST /api/&lt;command&gt;</code> with the token from <code>server.json</code>, e.g. <code>listMessages</code>, <code>getMessage</code>, <code>retryNow</code>, <code>advanceClock</code>. Live events are on the WebSocket <code>/api/events</code>.</li>
<li>Or use the command line: <code>npx hookbench --help</code>.</li>
</ul>
<p>The README describes every command.</p>
</body></html>`;
