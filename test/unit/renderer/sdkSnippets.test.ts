/**
 * The Sources screen's SDK snippets: each names this workbench's ingestion URL and the write key, in the
 * form its SDK wants (a base URL the SDK appends /v1/batch to; the browser SDK's host + /v1). The routes
 * themselves are the ingestion API's (test/integration/serve/ingest.test.ts posts to each, and runs
 * @segment/analytics-node against a serve); test/e2e/sources.e2e.ts runs the cURL snippet as copied.
 */
import { describe, expect, it } from 'vitest';
import { browserApiHost, EXAMPLE_BATCH, SDK_PACKAGES, sdkSnippet, SDKS, type Sdk } from '../../../renderer/src/features/sources/sdkSnippets';

const target = { ingestUrl: 'http://127.0.0.1:4400', writeKey: 'wk_backend' };

/** The arguments of a POSIX shell command line made of single-quoted words (as shellQuote writes them). */
function shellWords(line: string): string[] {
  const words: string[] = [];
  const text = line.replace(/\\\n/g, ' ');
  const re = /'((?:[^']|'\\'')*)'|(\S+)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) words.push(m[1] !== undefined ? m[1].replace(/'\\''/g, "'") : m[2]!);
  return words;
}

describe('SDK snippets (Sources screen)', () => {
  it.each(SDKS)('%s: names the ingestion URL, the write key and the package', (sdk: Sdk) => {
    const code = sdkSnippet(sdk, target);
    expect(code).toContain('wk_backend');
    expect(code).toContain(sdk === 'browser' ? '127.0.0.1:4400/v1' : 'http://127.0.0.1:4400');
    if (sdk !== 'curl') expect(code).toContain(SDK_PACKAGES[sdk]);
    // Nothing points anywhere else.
    expect(code).not.toMatch(/segment\.io|segment\.com\/v1|localhost/);
  });

  it('the server SDKs are given the base URL: they add /v1/batch themselves', () => {
    expect(sdkSnippet('node', target)).toContain(`host: "http://127.0.0.1:4400"`);
    expect(sdkSnippet('python', target)).toContain(`analytics.host = "http://127.0.0.1:4400"`);
    expect(sdkSnippet('go', target)).toContain(`analytics.Config{Endpoint: "http://127.0.0.1:4400"}`);
    expect(sdkSnippet('hookbench', target)).toContain(`{ endpoint: "http://127.0.0.1:4400" }`);
  });

  it('the browser SDK: apiHost is host + /v1 without the scheme (it posts <protocol>://<apiHost>/t, /i, ...), protocol apart', () => {
    expect(browserApiHost('http://127.0.0.1:4400')).toEqual({ apiHost: '127.0.0.1:4400/v1', protocol: 'http' });
    expect(browserApiHost('https://bench.local:8443/')).toEqual({ apiHost: 'bench.local:8443/v1', protocol: 'https' });
    const code = sdkSnippet('browser', target);
    expect(code).toContain(`apiHost: "127.0.0.1:4400/v1", protocol: "http"`);
    expect(code).toContain(`apiKey: "wk_backend"`);
    expect(code).toContain('cdnSettings'); // nothing fetched from Segment's CDN for an unknown write key
  });

  it('cURL: POST /v1/batch with Basic auth (the write key, empty password) and the example batch', () => {
    const words = shellWords(sdkSnippet('curl', target));
    expect(words[0]).toBe('curl');
    const url = words.find((w) => w.startsWith('http'))!;
    expect(url).toBe('http://127.0.0.1:4400/v1/batch');
    const user = words[words.indexOf('-u') + 1]!;
    expect(user).toBe('wk_backend:');
    const body = words[words.indexOf('--data-binary') + 1]!;
    expect(JSON.parse(body)).toEqual(EXAMPLE_BATCH);
    expect(words).toContain('Content-Type: application/json');
  });

  it('a write key with quotes and backslashes stays one literal in every language', () => {
    const odd = { ingestUrl: 'http://127.0.0.1:4400/', writeKey: `wk_'a"b\\c` };
    expect(shellWords(sdkSnippet('curl', odd))).toContain(`wk_'a"b\\c:`);
    expect(sdkSnippet('curl', odd)).toContain(`'http://127.0.0.1:4400/v1/batch'`); // the trailing slash is dropped
    for (const sdk of ['node', 'python', 'go', 'hookbench', 'browser'] as const) expect(sdkSnippet(sdk, odd)).toContain(`"wk_'a\\"b\\\\c"`);
  });
});
