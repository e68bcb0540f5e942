/**
 * One cURL command per attempt, oldest first, that sends the attempt again: the same URL, the headers in
 * the order they were sent and the exact body bytes. Every argument is single-quoted (`'` written as
 * `'\''`), which POSIX shells pass through byte for byte, newlines included; `--data-binary` sends it
 * unchanged and adds no trailing newline (a heredoc would).
 */
import type { Destination } from '../../contract/destinations.js';
import type { MessageDetail } from '../../contract/messages.js';
import { attemptRows, describeAttempt, type AttemptRow } from './attempts.js';
import type { Redactor } from './redaction.js';

/** Headers of the record that curl sends by itself. */
const COMPUTED_BY_CURL = new Set(['host', 'connection', 'content-length']);

/** Shell-quotes one argument for sh, bash and zsh. Exact for any text without NUL. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export function toCurl(details: readonly MessageDetail[], redactor: Redactor, destinations: readonly Destination[]): string {
  const rows = attemptRows(details);
  const caFiles = new Map(destinations.map((d) => [d.id, d.caFile]));
  const lines = [
    '#!/bin/sh',
    `# Hookbench export: ${rows.length} attempt${rows.length === 1 ? '' : 's'}, one cURL command each, oldest first.`,
    ...(redactor.active ? ['# Secrets are replaced by <redacted>: export with includeSecrets to replay requests that need them.'] : []),
  ];
  for (const row of rows) lines.push('', ...command(row, redactor, caFiles.get(row.delivery?.destinationId ?? '') ?? null));
  return `${lines.join('\n')}\n`;
}

function command(row: AttemptRow, redactor: Redactor, caFile: string | null): string[] {
  const a = row.attempt;
  const comment = `# ${redactor.text(describeAttempt(row))}`;
  const body = redactor.text(row.message.body);
  const headers = Object.entries(a.requestHeaders);
  if (headers.length === 0) return [comment, '# (no request was sent, so there is nothing to replay)'];
  if (body.includes('\0')) return [comment, '# (the body contains a NUL byte, which no shell argument can carry)'];

  const args = [`curl -sS -g -X POST ${shellQuote(redactor.url(a.url))}`];
  if (caFile) args.push(`--cacert ${shellQuote(caFile)}`);
  // curl writes Host, Connection and Content-Length itself (the same values); `-H 'Name;'` sends a header
  // with an empty value.
  for (const [name, value] of headers) {
    if (COMPUTED_BY_CURL.has(name.toLowerCase())) continue;
    const v = redactor.header(name, value);
    args.push(`-H ${shellQuote(v === '' ? `${name};` : `${name}: ${v}`)}`);
  }
  // Hookbench sends neither Accept nor Expect: drop curl's defaults (unless a static header set Accept).
  const extra = [...(headers.some(([n]) => n.toLowerCase() === 'accept') ? [] : [`-H 'Accept:'`]), `-H 'Expect:'`];
  args.push(extra.join(' '));
  // --data-raw, not --data-binary, for a body starting with `@` (which --data-binary reads as a file name).
  args.push(`${body.startsWith('@') ? '--data-raw' : '--data-binary'} ${shellQuote(body)}`);
  return [comment, args.join(' \\\n  ')];
}
