import { describe, expect, it } from 'vitest';
import type { CheckExchange } from '../../../main/contract/check/check.js';
import { responseText } from '../../../main/check/responseText.js';

const answered = (body: string, headers: Record<string, string> = {}): CheckExchange =>
  ({ response: { headers, body, bodyTruncated: false } }) as unknown as CheckExchange;

describe('a response body as a report quotes it', () => {
  it('a pretty-printed JSON error is one line', () => {
    expect(responseText(answered('{\n  "error": "bad signature"\n}\n'), 200)).toBe('{ "error": "bad signature" }');
  });

  it("an HTML error page is its text: no head, script or style, entities decoded (labelled or not)", () => {
    const page = '<!DOCTYPE html><html><head><title>Error</title><style>p{}</style></head><body><script>x()</script><h1>502 Bad&nbsp;Gateway</h1><p>nginx &amp; co</p></body></html>';
    expect(responseText(answered(page), 200)).toBe('502 Bad Gateway nginx & co');
    expect(responseText(answered('<h1>Forbidden</h1>', { 'Content-Type': 'text/html' }), 200)).toBe('Forbidden');
  });

  it('text that only looks like markup is kept as it is, and a long body is cut with an ellipsis', () => {
    expect(responseText(answered('<not html> a < b'), 200)).toBe('<not html> a < b');
    expect(responseText(answered('x'.repeat(300)), 120)).toBe(`${'x'.repeat(120)}…`);
  });

  it('no response is no text', () => {
    expect(responseText({ response: null } as unknown as CheckExchange, 200)).toBe('');
  });
});
