/** A request as a cURL command line that sends the same bytes and headers. */

/** POSIX shell single-quoting. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

/** Headers curl computes itself are left out; the rest are sent in the recorded order. */
const COMPUTED = new Set(['content-length', 'host', 'connection', 'transfer-encoding']);

export function toCurl(request: { method: string; url: string; headers: Record<string, string>; body: string }): string {
  const lines = [`curl -X ${request.method} ${shellQuote(request.url)}`];
  for (const [name, value] of Object.entries(request.headers)) {
    if (!COMPUTED.has(name.toLowerCase())) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  }
  lines.push(`  --data-raw ${shellQuote(request.body)}`);
  return lines.join(' \\\n');
}
