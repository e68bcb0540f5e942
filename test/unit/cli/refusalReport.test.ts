import { describe, expect, it } from 'vitest';
import type { IngestRefusal } from '../../../main/contract/sources.js';
import { RefusalReport } from '../../../main/cli/refusalReport.js';

const refusal = (message: string, code = 'unauthorized', route = '/v1/batch'): IngestRefusal => ({
  id: 1,
  receivedAt: 0,
  sourceId: null,
  route,
  clientIp: '127.0.0.1',
  httpStatus: code === 'unauthorized' ? 401 : 400,
  code,
  message,
  field: null,
  index: null,
  limit: null,
  bodyBytes: null,
  bodyPreview: null,
});

describe("serve's report of refused requests", () => {
  it('one line per unknown key, then counts; past the distinct limit, one count line for the rest; other refusals are not its business', () => {
    const lines: string[] = [];
    let summary: (() => void) | null = null;
    const report = new RefusalReport((l) => lines.push(l), { maxDistinct: 1, schedule: (fn) => ((summary = fn), () => (summary = null)) });
    for (let i = 0; i < 3; i++) report.refused(refusal('unknown write key "wk_…aa"'));
    for (const key of ['bb', 'cc', 'cc']) report.refused(refusal(`unknown write key "wk_…${key}"`));
    report.refused(refusal('batch[0].event: is required', 'missing_field'));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('unknown write key "wk_…aa"');
    summary!();
    expect(lines.slice(1)).toEqual([
      'refused 2 more requests: unknown write key "wk_…aa"',
      'refused 3 more requests for 2 other unknown write keys or paths; see the ingest log (Sources in the UI, or listIngestLog)',
    ]);
    report.close();
    expect(lines).toHaveLength(3);
  });

  it("a source's key sent where it is not read (the refusal names the source) is not told to give the SDK a write key", () => {
    const lines: string[] = [];
    const report = new RefusalReport((l) => lines.push(l), { schedule: () => () => {} });
    const message = 'missing write key: the request has Basic auth with an empty user name and the key as its password (the write key of source "Backend"); send Basic auth with the write key as the user name and an empty password, or "writeKey" in the body';
    report.refused({ ...refusal(message), sourceId: 'src-1' });
    expect(lines).toEqual([`refused a request to /v1/batch from 127.0.0.1 (HTTP 401): ${message}; nothing of it was kept. Repeats are counted, not printed.`]);
    report.close();
  });
});
