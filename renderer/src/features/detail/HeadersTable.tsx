/** Headers in the order they were sent, as name: value lines (as entries, a repeated header stays repeated). */
export function HeadersTable({ headers, label }: { headers: Record<string, string> | readonly (readonly [string, string])[]; label: string }) {
  const entries = Array.isArray(headers) ? headers : Object.entries(headers);
  if (!entries.length) return <p className="px-3 py-2 text-xs text-faint">No headers.</p>;
  return (
    <table aria-label={label} className="w-full table-fixed font-mono text-xs">
      <tbody>
        {entries.map(([name, value], i) => (
          <tr key={`${i}-${name}`} className="border-b border-line/50 last:border-b-0">
            <th scope="row" className="w-[38%] truncate px-3 py-1 text-left align-top font-normal text-muted" title={name}>
              {name}
            </th>
            {/* Balanced: a long token (an X-Signature) splits into even lines, never one character alone on the last. */}
            <td className="px-3 py-1 break-all [text-wrap:balance]">{value}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
