/**
 * Screenshots of every screen, light and dark, at 1280×800 and 1024×768, against a real `hookbench serve`
 * filled with realistic data (test/e2e/screens.ts: the same screens and states the end-to-end tests check
 * the controls of). Look at each picture before calling a screen done.
 *
 *   npm run build:renderer && npx tsx scripts/screenshots.ts [--out /tmp/hookbench-shots] [--only compare,live] [--docs]
 *
 * `--only` takes shots whose names start with one of the given prefixes.
 *
 * `--docs` also writes the README's pictures (Live, Compose, attempt detail, Signature panel, Receiver,
 * Destinations and its editor, History, Troubleshoot, Check) to docs/screenshots/.
 */
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { launchBrowser } from '../test/e2e/browser.js';
import { openScreen, setUpScreens } from '../test/e2e/screens.js';
import { ROOT } from '../test/e2e/serve.js';

const args = process.argv.slice(2);
const OUT = args.includes('--out') ? args[args.indexOf('--out') + 1]! : '/tmp/hookbench-shots';
const DOCS = args.includes('--docs');
/** `--only destination,live-empty`: just the shots whose names start with one of these. */
const ONLY = args.includes('--only') ? args[args.indexOf('--only') + 1]!.split(',') : null;

async function main(): Promise<void> {
  mkdirSync(OUT, { recursive: true });
  const { screens, stop } = await setUpScreens();
  const browser = await launchBrowser();
  try {
    const chosen = screens.filter((shot) => !ONLY || ONLY.some((prefix) => shot.name.startsWith(prefix)));
    for (const colorScheme of ['light', 'dark'] as const) {
      for (const [width, height] of [
        [1280, 800],
        [1024, 768],
      ] as const) {
        for (const shot of chosen) {
          const page = await openScreen(browser, shot, { width, height, colorScheme });
          const file = join(OUT, `${shot.name}-${colorScheme}-${width}x${height}.png`);
          await page.screenshot({ path: file });
          // A route still answering a poll (the Check screens' fixtures) must not throw once the page is gone.
          await page.unrouteAll({ behavior: 'ignoreErrors' });
          await page.context().close();
        }
      }
    }
    if (DOCS) {
      const docs = join(ROOT, 'docs', 'screenshots');
      mkdirSync(docs, { recursive: true });
      for (const [from, to] of [
        ['live-detail-light-1280x800.png', 'live.png'],
        ['compose-light-1280x800.png', 'compose.png'],
        ['attempt-dark-1280x800.png', 'attempt-detail.png'],
        ['signature-light-1280x800.png', 'signature.png'],
        ['receiver-capture-light-1280x800.png', 'receiver.png'],
        ['history-light-1280x800.png', 'history.png'],
        ['troubleshoot-light-1280x800.png', 'troubleshoot.png'],
        ['check-light-1280x800.png', 'check.png'],
        ['destinations-light-1280x800.png', 'destinations.png'],
        ['destination-edit-filters-light-1280x800.png', 'destination-edit.png'],
      ] as const) {
        copyFileSync(join(OUT, from), join(docs, to));
      }
    }
    process.stdout.write(`screenshots in ${OUT}\n`);
  } finally {
    await browser.close();
    await stop();
  }
}

await main();
