/**
 * A check run as JUnit XML, the format CI servers read (Jenkins, GitLab, GitHub test reporters): one
 * testsuite, one testcase per check. A `fail` is a testcase with a <failure>; a `warn` passes, with its
 * note in the testcase's <system-out> (docs/check.md, "--junit"). The shape follows Jenkins' JUnit schema (xunit-plugin's
 * junit-10.xsd), which allows system-out inside a testcase; test/unit/check/junit.test.ts checks it.
 */
import { SEE_DIAGNOSIS, type CapacityReport, type CheckDiagnosis, type CheckExchange, type CheckResult, type CheckRun } from '../contract/check/check.js';
import { CAPACITY_CHECK_ID } from '../contract/check/checkInputs.js';
import { BATTERY } from './battery.js';
import { responseText } from './responseText.js';

/** Checks that send their requests at once: their exchanges overlap, so their durations do not add up. */
const CONCURRENT = new Set(BATTERY.filter((c) => c.concurrent).map((c) => c.id));

/** XML 1.0 forbids most control characters even escaped: they are written as U+FFFD. */
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

export function xmlEscape(text: string): string {
  return text.replace(NOT_XML, '\ufffd').replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}

/** `2026-11-26T23:47:25` (no zone: the form both common JUnit schemas accept). */
const timestamp = (iso: string): string => iso.slice(0, 19);

const seconds = (ms: number): string => (Math.max(0, ms) / 1000).toFixed(3);

export function evidenceText(evidence: readonly CheckExchange[]): string {
  return evidence
    .map((ex) => {
      const answer = ex.statusCode !== null ? `HTTP ${ex.statusCode}` : (ex.error ?? ex.outcome);
      const lines = [`${ex.label}: POST ${ex.request.url} → ${answer} (${Math.round(ex.durationMs)} ms)`];
      if (ex.signature) lines.push(`  X-Signature: ${ex.signature.sent ?? '(none)'} — ${ex.signature.explanation}`);
      // Quoted as the CLI and the check's detail quote it: one line, an HTML error page by its text.
      const body = responseText(ex, 500);
      if (body) lines.push(`  response body: ${body}`);
      return lines.join('\n');
    })
    .join('\n');
}

const diagnosisText = (d: CheckDiagnosis): string => `Diagnosis (${d.mistake}): ${d.title}\nHow to fix: ${d.fix}`;

/**
 * A testcase's time, as true as the run keeps it: capacity's is the seconds it measured (its evidence is a
 * few of thousands of deliveries); a concurrent check's is its longest exchange (they overlap, and only a
 * few are kept: a lower bound of its wall time, which the run does not keep); any other's, its requests' sum.
 */
function testcaseMs(c: CheckResult, capacity: Pick<CapacityReport, 'series'> | null): number {
  if (c.id === CAPACITY_CHECK_ID) return (capacity?.series.length ?? 0) * 1000;
  if (CONCURRENT.has(c.id)) return c.evidence.reduce((longest, ex) => Math.max(longest, ex.durationMs), 0);
  return c.evidence.reduce((sum, ex) => sum + ex.durationMs, 0);
}

function testcase(c: CheckResult, diagnosis: CheckDiagnosis | null, capacity: Pick<CapacityReport, 'series'> | null): string {
  const time = testcaseMs(c, capacity);
  const open = `    <testcase name="${xmlEscape(`${c.id}: ${c.title}`)}" classname="hookbench.check.${xmlEscape(c.area)}" time="${seconds(time)}"`;
  if (c.verdict === 'pass') return `${open}/>`;
  // A CI page shows one failure at a time: one that points at the diagnosis carries it.
  const root = diagnosis && c.detail.includes(SEE_DIAGNOSIS) ? diagnosisText(diagnosis) : '';
  const body = [c.detail, root, c.fix ? `How to fix: ${c.fix}` : '', evidenceText(c.evidence)].filter(Boolean).join('\n');
  if (c.verdict === 'warn') return `${open}>\n      <system-out>${xmlEscape(`warning: ${body}`)}</system-out>\n    </testcase>`;
  return `${open}>\n      <failure message="${xmlEscape(c.detail)}" type="${xmlEscape(c.id)}">${xmlEscape(body)}</failure>\n    </testcase>`;
}

/** The diagnosis, when the run has one, is a property (its mistake) and the suite's system-out (its title and fix). */
export function junitXml(run: Pick<CheckRun, 'url' | 'startedAt' | 'finishedAt' | 'summary' | 'checks'> & { diagnosis?: CheckDiagnosis | null; capacity?: Pick<CapacityReport, 'series'> | null }, hostname = 'localhost'): string {
  const elapsed = run.finishedAt ? Date.parse(run.finishedAt) - Date.parse(run.startedAt) : 0;
  const counts = `tests="${run.checks.length}" failures="${run.summary.failed}" errors="0"`;
  const diagnosis = run.diagnosis ?? null;
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<testsuites name="hookbench check" ${counts} time="${seconds(elapsed)}">`,
    `  <testsuite name="${xmlEscape(`hookbench check ${run.url}`)}" ${counts} skipped="0" time="${seconds(elapsed)}" timestamp="${timestamp(run.startedAt)}" hostname="${xmlEscape(hostname)}">`,
    '    <properties>',
    `      <property name="url" value="${xmlEscape(run.url)}"/>`,
    `      <property name="warnings" value="${run.summary.warnings}"/>`,
    ...(diagnosis ? [`      <property name="diagnosis" value="${xmlEscape(diagnosis.mistake)}"/>`] : []),
    '    </properties>',
    ...run.checks.map((c) => testcase(c, diagnosis, run.capacity ?? null)),
    ...(diagnosis ? [`    <system-out>${xmlEscape(diagnosisText(diagnosis))}</system-out>`] : []),
    '  </testsuite>',
    '</testsuites>',
    '',
  ].join('\n');
}
