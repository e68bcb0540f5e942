/**
 * `DEBUG=analytics` turns on runtime logging (the Go library's switch), read the way the `debug` package
 * reads it: a list separated by commas or spaces, `*` as a wildcard, `-name` to exclude.
 */
import type { Logger } from './types.js';

export const DEBUG_NAMESPACE = 'analytics';

export function debugEnabled(value: string | undefined, namespace: string = DEBUG_NAMESPACE): boolean {
  if (!value) return false;
  let enabled = false;
  for (const entry of value.split(/[\s,]+/)) {
    if (entry === '') continue;
    const exclude = entry.startsWith('-');
    const pattern = exclude ? entry.slice(1) : entry;
    const re = new RegExp(`^${pattern.split('*').map(escapeRegExp).join('.*')}$`);
    if (!re.test(namespace)) continue;
    if (exclude) return false;
    enabled = true;
  }
  return enabled;
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** Writes each line to stderr as `analytics <message>`. */
export const stderrLogger: Logger = {
  debug(message) {
    process.stderr.write(`${DEBUG_NAMESPACE} ${message}\n`);
  },
  error(message) {
    process.stderr.write(`${DEBUG_NAMESPACE} ${message}\n`);
  },
};
