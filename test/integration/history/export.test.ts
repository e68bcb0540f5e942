/**
 * Exports of real deliveries: the HAR of a real core validates as HAR 1.2, a cURL command replayed against
 * a fresh receiver sends the captured bytes and signature again, and secrets stay out unless asked for.
 */
import { execFile, spawnSync } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { Destination } from '../../../main/contract/destinations.js';
import type { MessageDetail } from '../../../main/contract/messages.js';
import type { Core } from '../../../main/app/createCore.js';
import { exportMessages, type ExportFormat } from '../../../main/domain/export.js';
import { har12Schema } from '../../helpers/har12.js';
import { must, newCore, newReceiver, sendTrack, settled } from '../../helpers/harness.js';

const SECRET = "sh4red-'secret'-$x";
const BEARER = 'Bearer tok-9f8e7d';

/** Every kind of byte a shell could mangle, and enough of them (> 1 KiB) that curl would send `Expect: 100-continue`. */
const properties = {
  quotes: `"double" 'single' \`back\``,
  dollar: '$HOME ${PATH} $(whoami) $1',
  backslashes: 'C:\\path\\to \\n \\\\ \\u0041',
  newlines: 'line 1\nline 2\r\n\ttabbed',
  unicode: 'Grüße, 東京, עברית, ‮rtl‬, zero\u200bwidth, \u2028 separator',
  emoji: '😀🎉👩‍👩‍👧 🏳️‍🌈',
  heredoc: "EOF\n'EOF'\n!!",
  padding: 'x'.repeat(1200),
};

const curlMissing = spawnSync('curl', ['--version']).status !== 0;
if (curlMissing) console.log('export.test: curl is not installed, so the cURL replay test is skipped');

async function deliveredMessage(webhookUrls: string[]): Promise<{ core: Core; destination: Destination; detail: MessageDetail }> {
  const core = newCore();
  const destination = must(
    core.createDestination({
      name: 'd',
      enabled: true,
      sharedSecret: SECRET,
      webhooks: webhookUrls.map((url) => ({ url, headers: { 'X-Env': 'dev', Authorization: BEARER } })),
    }),
  );
  const id = sendTrack(core, 'd', { properties: { ...properties, echoed: SECRET } });
  return { core, destination, detail: await settled(core, id) };
}

const exportOf = (detail: MessageDetail, destination: Destination, format: ExportFormat, includeSecrets: boolean) =>
  exportMessages([detail], [destination], { format, includeSecrets, secrets: [SECRET], creatorVersion: '0.1.0' }).text;

describe('export of real deliveries', () => {
  it('the HAR of a success and a refused connection validates as HAR 1.2', async () => {
    const rx = await newReceiver();
    const closed = await newReceiver();
    await closed.close();
    const { detail, destination } = await deliveredMessage([rx.url, closed.url]);
    expect(detail.attempts.map((a) => a.outcome).sort()).toEqual(['network_error', 'success']);

    for (const includeSecrets of [true, false]) {
      const har = JSON.parse(exportOf(detail, destination, 'har', includeSecrets)) as unknown;
      const parsed = har12Schema.safeParse(har);
      expect(parsed.error?.issues ?? []).toEqual([]);
      const entries = parsed.data!.log.entries;
      expect(entries).toHaveLength(2);
      const ok = entries.find((e) => e['_outcome'] === 'success')!;
      expect(ok.response.status).toBe(200);
      // The headers as the socket carried them, in wire order (docs/behaviour.md §2).
      expect(ok.request.headers.map((h) => h.name)).toEqual(['host', 'connection', 'content-type', 'user-agent', 'x-signature', 'X-Env', 'Authorization', 'content-length']);
      if (includeSecrets) expect(ok.request.postData!.text).toBe(detail.message.body);
      const refused = entries.find((e) => e['_outcome'] === 'network_error')!;
      expect(refused.response.status).toBe(0);
      expect(refused.response['_error']).toMatch(/ECONNREFUSED/);
    }
  });

  it.skipIf(curlMissing)('a cURL command replayed against a local receiver sends the captured body and signature byte for byte', async () => {
    const rx = await newReceiver();
    const { detail, destination } = await deliveredMessage([rx.url]);
    expect(detail.message.status).toBe('delivered');
    const original = rx.captured[0]!;
    expect(Buffer.from(detail.message.body, 'utf8').equals(original.body)).toBe(true);

    const replayRx = await newReceiver();
    const script = exportOf(detail, destination, 'curl', true);
    expect(script.split(rx.url)).toHaveLength(2); // the URL appears once, in the one command
    // Asynchronously: the receiver answers on this process' event loop.
    await promisify(execFile)('bash', ['-c', script.replace(rx.url, replayRx.url)], { timeout: 15_000 });

    expect(replayRx.captured).toHaveLength(1);
    const replayed = replayRx.captured[0]!;
    expect(replayed.method).toBe('POST');
    expect(replayed.body.equals(original.body)).toBe(true);
    expect(replayed.headers['x-signature']).toBe(original.headers['x-signature']);
    expect(replayed.headers['x-signature']).toBe(detail.attempts[0]!.signature);
    // The same headers too, but for the connection's own (Host names the other port; undici adds keep-alive).
    const own = (h: typeof original.headers) => Object.entries(h).filter(([n]) => n !== 'host' && n !== 'connection').sort();
    expect(own(replayed.headers)).toEqual(own(original.headers));
  });

  it('no secret appears in any format unless includeSecrets; every one does when asked', async () => {
    const rx = await newReceiver();
    const { detail, destination } = await deliveredMessage([rx.url]);
    const escaped = JSON.stringify(SECRET).slice(1, -1);
    for (const format of ['json', 'har', 'curl'] as const) {
      const redacted = exportOf(detail, destination, format, false);
      for (const s of [SECRET, escaped, BEARER, 'tok-9f8e7d']) expect(redacted, `${format}: ${s}`).not.toContain(s);
      expect(redacted, format).toContain('<redacted>');
      expect(redacted, format).toContain(detail.attempts[0]!.signature!);
      const kept = exportOf(detail, destination, format, true);
      expect(kept, format).toContain(BEARER);
      expect(kept, format).toContain(format === 'curl' ? SECRET.replace(/'/g, `'\\''`) : escaped);
      expect(kept, format).not.toContain('<redacted>');
    }
  });
});
