/**
 * `hookbench check --junit` against the common JUnit XML schema: Jenkins' junit-10.xsd
 * (https://github.com/jenkinsci/xunit-plugin/blob/master/src/main/resources/org/jenkinsci/plugins/xunit/types/model/xsd/junit-10.xsd),
 * the one that allows <system-out> inside a <testcase>, which the check needs for a warning (docs/check.md). No XSD
 * validator is installed, so its rules are written out below (elements, allowed children, required
 * attributes, the SUREFIRE_TIME pattern) and checked on a tree read by sax in strict mode (well-formed XML;
 * sax is in the tree already, through electron-builder).
 */
import { createRequire } from 'node:module';
import { describe, expect, it } from 'vitest';
import { junitXml } from '../../../main/check/junit.js';
import type { CheckExchange, CheckResult } from '../../../main/contract/check/check.js';
import { summarise } from '../../../main/contract/check/check.js';

interface Node {
  name: string;
  attributes: Record<string, string>;
  children: Node[];
  text: string;
}

interface SaxParser {
  onerror: (e: Error) => void;
  onopentag: (tag: { name: string; attributes: Record<string, string> }) => void;
  onclosetag: () => void;
  ontext: (t: string) => void;
  write(s: string): { close(): void };
}
const sax = createRequire(import.meta.url)('sax') as { parser(strict: boolean, options: object): SaxParser };

function parseXml(xml: string): Node {
  const parser = sax.parser(true, {});
  const stack: Node[] = [];
  let root: Node | null = null;
  parser.onerror = (e) => {
    throw e;
  };
  parser.onopentag = (tag) => {
    const node: Node = { name: tag.name, attributes: tag.attributes, children: [], text: '' };
    if (stack.length) stack.at(-1)!.children.push(node);
    else root = node;
    stack.push(node);
  };
  parser.onclosetag = () => void stack.pop();
  parser.ontext = (t) => {
    if (stack.length) stack.at(-1)!.text += t;
  };
  parser.write(xml).close();
  if (!root) throw new Error('no root element');
  return root;
}

/** junit-10.xsd: each element's allowed children, required and allowed attributes. */
const SCHEMA: Record<string, { children: string[]; required: string[]; allowed: string[]; text?: boolean }> = {
  testsuites: { children: ['testsuite'], required: [], allowed: ['name', 'time', 'tests', 'failures', 'errors'] },
  testsuite: {
    children: ['testsuite', 'properties', 'testcase', 'system-out', 'system-err'],
    required: ['name', 'tests', 'failures', 'errors'],
    allowed: ['name', 'tests', 'failures', 'errors', 'group', 'time', 'skipped', 'timestamp', 'hostname', 'id', 'package', 'file', 'log', 'url'],
  },
  properties: { children: ['property'], required: [], allowed: [] },
  property: { children: [], required: ['name', 'value'], allowed: ['name', 'value'] },
  testcase: {
    children: ['skipped', 'error', 'failure', 'rerunFailure', 'rerunError', 'flakyFailure', 'flakyError', 'system-out', 'system-err'],
    required: ['name'],
    allowed: ['name', 'time', 'classname', 'group'],
  },
  failure: { children: [], required: [], allowed: ['type', 'message'], text: true },
  error: { children: [], required: [], allowed: ['type', 'message'], text: true },
  skipped: { children: [], required: [], allowed: ['type', 'message'], text: true },
  'system-out': { children: [], required: [], allowed: [], text: true },
  'system-err': { children: [], required: [], allowed: [], text: true },
};
const SUREFIRE_TIME = /^(([0-9]{0,3},)*[0-9]{3}|[0-9]{0,3})*(\.[0-9]*)?$/;

function validate(node: Node, path = node.name): string[] {
  const rule = SCHEMA[node.name];
  if (!rule) return [`${path}: element <${node.name}> is not in the schema`];
  const problems: string[] = [];
  for (const a of rule.required) if (!(a in node.attributes)) problems.push(`${path}: missing required attribute ${a}`);
  for (const a of Object.keys(node.attributes)) if (!rule.allowed.includes(a)) problems.push(`${path}: attribute ${a} is not allowed`);
  if ((node.name === 'testsuite' || node.name === 'testsuites') && node.attributes['time'] !== undefined && !SUREFIRE_TIME.test(node.attributes['time'])) {
    problems.push(`${path}: time "${node.attributes['time']}" is not a SUREFIRE_TIME`);
  }
  if (!rule.text && node.text.trim() !== '') problems.push(`${path}: text is not allowed in <${node.name}>`);
  node.children.forEach((child, i) => {
    if (!rule.children.includes(child.name)) problems.push(`${path}: <${child.name}> is not allowed in <${node.name}>`);
    problems.push(...validate(child, `${path}/${child.name}[${i}]`));
  });
  return problems;
}

const exchange = (over: Partial<CheckExchange> = {}): CheckExchange => ({
  label: 'forged: no X-Signature',
  request: { method: 'POST', url: 'http://127.0.0.1:3000/hook', headers: { 'content-type': 'application/json' }, body: '{"type":"track"}', bodyBytes: 16, bodyTruncated: false },
  outcome: 'success',
  statusCode: 200,
  error: null,
  durationMs: 12.5,
  response: { headers: {}, body: 'ok <accepted> & "logged" \u0007', bodyTruncated: false },
  attempt: null,
  signature: { sent: null, expected: 'ab'.repeat(20), explanation: 'no X-Signature header was sent' },
  ...over,
});

const result = (over: Partial<CheckResult>): CheckResult => ({ id: 'shapes.track', title: 'a track call gets a 2xx', area: 'shapes', verdict: 'pass', detail: 'HTTP 200 in 3 ms', evidence: [exchange()], fix: null, change: null, ...over });

describe('hookbench check --junit', () => {
  const checks = [
    result({}),
    result({ id: 'signature.missing', area: 'signature', title: 'a request without X-Signature is refused with a 4xx', verdict: 'fail', detail: 'no X-Signature: accepted with HTTP 200; forged requests get in <&>', fix: 'Verify "X-Signature".' }),
    result({ id: 'time.latency', area: 'time', title: 'answers within 1 s', verdict: 'warn', detail: 'p50 1200 ms, p95 1500 ms, max 1600 ms over 2 requests; 2 took more than 1000 ms', evidence: [] }),
  ];
  const run = { url: 'http://127.0.0.1:3000/hook?a=1&b=<2>', startedAt: '2026-11-26T23:47:25.123Z', finishedAt: '2026-11-26T23:47:29.623Z', summary: summarise(checks), checks };
  const xml = junitXml(run, 'ci-runner');

  it('is well-formed and valid against junit-10.xsd (control characters and markup in evidence included)', () => {
    const root = parseXml(xml);
    expect(validate(root)).toEqual([]);
    expect(root.name).toBe('testsuites');
  });

  it('one testcase per check: fail → <failure>, warn → passing testcase with a system-out note, pass → empty', () => {
    const suite = parseXml(xml).children[0]!;
    expect(suite.attributes).toMatchObject({ tests: '3', failures: '1', errors: '0', skipped: '0', time: '4.500', timestamp: '2026-11-26T23:47:25', hostname: 'ci-runner' });
    const cases = suite.children.filter((c) => c.name === 'testcase');
    expect(cases.map((c) => [c.attributes['name'], c.attributes['classname'], c.children.map((x) => x.name)])).toEqual([
      ['shapes.track: a track call gets a 2xx', 'hookbench.check.shapes', []],
      ['signature.missing: a request without X-Signature is refused with a 4xx', 'hookbench.check.signature', ['failure']],
      ['time.latency: answers within 1 s', 'hookbench.check.time', ['system-out']],
    ]);
    const failure = cases[1]!.children[0]!;
    expect(failure.attributes).toEqual({ message: 'no X-Signature: accepted with HTTP 200; forged requests get in <&>', type: 'signature.missing' });
    expect(failure.text).toContain('How to fix: Verify "X-Signature".');
    expect(failure.text).toContain('forged: no X-Signature: POST http://127.0.0.1:3000/hook → HTTP 200 (13 ms)');
    expect(failure.text).toContain('response body: ok <accepted> & "logged" \ufffd');
    expect(cases[2]!.children[0]!.text).toMatch(/^warning: p50 1200 ms/);
  });

  it('a failure quotes an HTML error page by its text on one line, as the CLI does, not as markup', () => {
    const page = '<!DOCTYPE html>\n<html lang="en">\n<head>\n<title>Error</title>\n</head>\n<body>\n<pre>PayloadTooLargeError: request entity too large<br> &nbsp; &nbsp;at readStream</pre>\n</body>\n</html>\n';
    const html = exchange({ statusCode: 413, response: { headers: { 'content-type': 'text/html; charset=utf-8' }, body: page, bodyTruncated: false } });
    const failed = result({ id: 'shapes.max-size', verdict: 'fail', detail: 'HTTP 413: PayloadTooLargeError: request entity too large at readStream', evidence: [html] });
    const doc = junitXml({ ...run, summary: summarise([failed]), checks: [failed] }, 'ci-runner');
    const text = parseXml(doc).children[0]!.children.find((c) => c.name === 'testcase')!.children[0]!.text;
    expect(text).toMatch(/^ {2}response body: PayloadTooLargeError: request entity too large at readStream$/m);
    expect(text).not.toContain('DOCTYPE');
  });

  it('a run with a diagnosis: a property naming the mistake, the suite\'s system-out, and each failure that points at it repeats it', () => {
    const refused = result({ id: 'shapes.track', verdict: 'fail', detail: 'refused (HTTP 401): the receiver rejects valid signatures, see the diagnosis', fix: null });
    const diagnosed = { ...run, checks: [refused], summary: summarise([refused]), diagnosis: { mistake: 'sha256' as const, title: 'The receiver rejects valid signatures: it computes HMAC-SHA256, not HMAC-SHA1', fix: 'Use <sha1>.' } };
    const root = parseXml(junitXml(diagnosed));
    expect(validate(root)).toEqual([]);
    const suite = root.children[0]!;
    expect(suite.children.map((c) => c.name)).toEqual(['properties', 'testcase', 'system-out']);
    expect(suite.children[0]!.children.map((p) => [p.attributes['name'], p.attributes['value']])).toContainEqual(['diagnosis', 'sha256']);
    expect(suite.children[2]!.text).toBe('Diagnosis (sha256): The receiver rejects valid signatures: it computes HMAC-SHA256, not HMAC-SHA1\nHow to fix: Use <sha1>.');
    expect(suite.children[1]!.children[0]!.text).toMatch(/^refused \(HTTP 401\): the receiver rejects valid signatures, see the diagnosis\nDiagnosis \(sha256\): /);
    expect(parseXml(xml).children[0]!.children.map((c) => c.name)).not.toContain('system-out');
  });

  it('a testcase\'s time: capacity\'s is the seconds it measured, a concurrent check\'s its longest exchange, any other\'s the sum of its requests', () => {
    const second = { deliveries: 300, p50: 40, p95: 60, errors: 0 };
    const capacity = result({ id: 'capacity.sustained-rate', area: 'capacity', title: 'sustains 100 deliveries per second', evidence: [exchange({ durationMs: 23 }), exchange({ durationMs: 23 })] });
    const burst = result({ id: 'burst.concurrent', area: 'burst', title: 'a burst', evidence: [exchange({ durationMs: 300 }), exchange({ durationMs: 450 }), exchange({ durationMs: 120 })] });
    const single = result({ evidence: [exchange({ durationMs: 100 }), exchange({ durationMs: 250 })] });
    const timed = { ...run, checks: [capacity, burst, single], summary: summarise([capacity, burst, single]), capacity: { series: [1, 2, 3, 4, 5].map((n) => ({ second: n, ...second })) } };
    const cases = parseXml(junitXml(timed)).children[0]!.children.filter((c) => c.name === 'testcase');
    expect(cases.map((c) => c.attributes['time'])).toEqual(['5.000', '0.450', '0.350']);
  });

  it('the validator itself refuses what junit-10.xsd refuses', () => {
    expect(validate(parseXml('<testsuites><testsuite name="x" tests="1" failures="0"><testcase/><bogus/></testsuite></testsuites>'))).toEqual([
      'testsuites/testsuite[0]: missing required attribute errors',
      'testsuites/testsuite[0]/testcase[0]: missing required attribute name',
      'testsuites/testsuite[0]: <bogus> is not allowed in <testsuite>',
      'testsuites/testsuite[0]/bogus[1]: element <bogus> is not in the schema',
    ]);
    expect(() => parseXml('<testsuites><testsuite></testsuites>')).toThrow();
  });
});
