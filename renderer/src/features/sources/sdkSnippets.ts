/**
 * Copyable SDK code that sends to this workbench's ingestion API (docs/behaviour.md §7), with a source's
 * write key: the stock SDKs, unmodified, pointed at `<ingestUrl>`. Each SDK adds its own path:
 * analytics-node, Python, Go and Hookbench's client POST `<ingestUrl>/v1/batch`; the browser SDK posts
 * `<ingestUrl>/v1/t`, `/v1/i`, ... (its `apiHost` is `<host>/v1`).
 */
import { shellQuote } from '../../lib/curl';

export const SDKS = ['node', 'browser', 'curl', 'python', 'go', 'hookbench'] as const;
export type Sdk = (typeof SDKS)[number];

export const SDK_LABELS: Record<Sdk, string> = {
  node: 'Node',
  browser: 'Browser',
  curl: 'cURL',
  python: 'Python',
  go: 'Go',
  hookbench: 'Hookbench client',
};

/** The package each snippet uses, as its install line names it. */
export const SDK_PACKAGES: Record<Sdk, string> = {
  node: '@segment/analytics-node',
  browser: '@segment/analytics-next',
  curl: 'curl',
  python: 'segment-analytics-python',
  go: 'github.com/segmentio/analytics-go/v3',
  hookbench: 'hookbench/client',
};

export interface SnippetTarget {
  /** The ingestion API's base URL (getSettings().ingestUrl), e.g. `http://127.0.0.1:4400`. */
  ingestUrl: string;
  writeKey: string;
}

/** The base URL without a trailing slash: SDKs append `/v1/...` themselves. */
function base(url: string): string {
  return url.replace(/\/+$/, '');
}

/** The browser SDK's settings: host and path without the scheme (`127.0.0.1:4400/v1`), and the scheme. */
export function browserApiHost(ingestUrl: string): { apiHost: string; protocol: 'http' | 'https' } {
  const url = new URL(base(ingestUrl));
  const path = url.pathname.replace(/\/+$/, '');
  return { apiHost: `${url.host}${path}/v1`, protocol: url.protocol === 'https:' ? 'https' : 'http' };
}

/**
 * A string literal for JavaScript, Python and Go alike: JSON's double-quoted form is valid in all three
 * for the printable ASCII a write key is made of (and still escapes quotes and backslashes).
 */
const lit = (value: string) => JSON.stringify(value);

/** The two calls every snippet sends, as one /v1/batch body (the cURL snippet's). */
export const EXAMPLE_BATCH = {
  batch: [
    { type: 'identify', userId: 'user-1', traits: { email: 'ada@example.com', plan: 'pro' } },
    { type: 'track', userId: 'user-1', event: 'Order Completed', properties: { total: 42 } },
  ],
};

export function sdkSnippet(sdk: Sdk, target: SnippetTarget): string {
  const url = base(target.ingestUrl);
  const key = lit(target.writeKey);
  switch (sdk) {
    case 'node':
      return `// npm install @segment/analytics-node
import { Analytics } from '@segment/analytics-node';

// host: this workbench; calls go to POST ${url}/v1/batch
const analytics = new Analytics({ writeKey: ${key}, host: ${lit(url)} });

analytics.identify({ userId: 'user-1', traits: { email: 'ada@example.com', plan: 'pro' } });
analytics.track({ userId: 'user-1', event: 'Order Completed', properties: { total: 42 } });

await analytics.closeAndFlush(); // send what is queued before the process exits
`;
    case 'browser': {
      const { apiHost, protocol } = browserApiHost(url);
      return `// npm install @segment/analytics-next   (analytics.js 2.0)
import { AnalyticsBrowser } from '@segment/analytics-next';

// The source's settings are given here, so nothing is fetched from Segment's CDN;
// calls go to POST ${protocol}://${apiHost}/t, /i, /p, ... (CORS is open).
export const analytics = AnalyticsBrowser.load({
  writeKey: ${key},
  cdnSettings: {
    integrations: {
      'Segment.io': { apiKey: ${key}, apiHost: ${lit(apiHost)}, protocol: ${lit(protocol)} },
    },
  },
});

analytics.identify('user-1', { email: 'ada@example.com', plan: 'pro' });
analytics.track('Order Completed', { total: 42 });
`;
    }
    case 'curl':
      return `curl -sS ${shellQuote(`${url}/v1/batch`)} \\
  -u ${shellQuote(`${target.writeKey}:`)} \\
  -H 'Content-Type: application/json' \\
  --data-binary ${shellQuote(JSON.stringify(EXAMPLE_BATCH))}
`;
    case 'python':
      return `# pip install segment-analytics-python
import segment.analytics as analytics

analytics.write_key = ${key}
analytics.host = ${lit(url)}  # this workbench; calls go to POST ${url}/v1/batch

analytics.identify('user-1', {'email': 'ada@example.com', 'plan': 'pro'})
analytics.track('user-1', 'Order Completed', {'total': 42})

analytics.flush()  # send what is queued before the script ends
`;
    case 'go':
      return `// go get github.com/segmentio/analytics-go/v3
package main

import "github.com/segmentio/analytics-go/v3"

func main() {
	// Endpoint: this workbench; calls go to POST ${url}/v1/batch
	client, err := analytics.NewWithConfig(${key}, analytics.Config{Endpoint: ${lit(url)}})
	if err != nil {
		panic(err)
	}
	defer client.Close() // sends what is queued

	client.Enqueue(analytics.Identify{UserId: "user-1", Traits: analytics.NewTraits().SetEmail("ada@example.com").Set("plan", "pro")})
	client.Enqueue(analytics.Track{UserId: "user-1", Event: "Order Completed", Properties: analytics.NewProperties().Set("total", 42)})
}
`;
    case 'hookbench':
      return `// npm install /path/to/hookbench   (the client library ships with Hookbench; see its README)
import { Client } from 'hookbench/client';

// endpoint: this workbench; calls go to POST ${url}/v1/batch
const client = new Client(${key}, { endpoint: ${lit(url)} });

client.identify({ userId: 'user-1', traits: { email: 'ada@example.com', plan: 'pro' } });
client.track({ userId: 'user-1', event: 'Order Completed', properties: { total: 42 } });

await client.close(); // flushes what is queued and stops the timer
`;
  }
}
