/**
 * The renderer's build. `base: './'` keeps every asset URL relative, so the same build works when
 * `hookbench serve` serves it at / and when the desktop window loads it from file://.
 *
 * `npm run dev:renderer` proxies /api (HTTP and the event WebSocket) to a running `hookbench serve`:
 * HOOKBENCH_URL=http://127.0.0.1:4400 (the default). The proxy drops the browser's Origin header because the
 * server answers only requests addressed to itself (its DNS-rebinding guard).
 */
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';
import { defineConfig, type ProxyOptions } from 'vite';
import { compression } from 'vite-plugin-compression2';
import { firstScreen } from './firstScreenPlugin.js';

const root = fileURLToPath(new URL('.', import.meta.url));
const target = process.env['HOOKBENCH_URL'] ?? 'http://127.0.0.1:4400';

const apiProxy: ProxyOptions = {
  target,
  changeOrigin: true,
  ws: true,
  configure(proxy) {
    proxy.on('proxyReq', (req) => req.removeHeader('origin'));
    proxy.on('proxyReqWs', (req) => req.removeHeader('origin'));
  },
};

export default defineConfig({
  root,
  base: './',
  // Each text asset also as .gz and .br beside it: `hookbench serve` sends the one the browser accepts
  // (server/httpServer.ts), so a first load moves a fraction of the bytes with no compression at request time.
  // firstScreen: the page's first requests run as index.html's first script, before the app (firstScreenPlugin.ts).
  plugins: [react(), tailwindcss(), firstScreen(root), compression({ algorithms: ['gzip', 'brotliCompress'], include: /\.(js|css|html|svg|json)$/, threshold: 0 })],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // The editor (CodeMirror, ~400 kB) is only needed once a screen shows a body; keep it in its own chunk
    // so the frame and the lists paint without it.
    chunkSizeWarningLimit: 500,
    rolldownOptions: {
      // Rolldown warns when plugin callbacks take most of a build; here they are Vite's and Tailwind's own,
      // which this project cannot speed up, so the warning would only add noise to every install.
      checks: { bundlerTimings: false },
      output: {
        // Rolldown's chunk groups: a module goes to the group with the highest priority that matches it.
        // React first, so the editor's chunk never takes a copy of it.
        codeSplitting: {
          groups: [
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler|zustand)[\\/]/, priority: 20 },
            { name: 'editor', test: /node_modules[\\/](@codemirror|@uiw|@lezer|codemirror|style-mod|w3c-keyname|crelt)[\\/]/, priority: 10 },
          ],
        },
      },
    },
  },
  server: { proxy: { '/api': apiProxy } },
});
