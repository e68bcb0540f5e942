import type { Change, DiffRow } from '../../lib/compare';

const MARK: Record<Change, { sign: string; label: string; row: string; text: string }> = {
  same: { sign: '', label: 'same', row: '', text: '' },
  changed: { sign: '≠', label: 'differs', row: 'bg-warn-soft', text: 'text-warn' },
  'left-only': { sign: '−', label: 'only on the left', row: 'bg-err-soft', text: 'text-err' },
  'right-only': { sign: '+', label: 'only on the right', row: 'bg-ok-soft', text: 'text-ok' },
};

/** The columns every compare table shares with the pickers above them: name, left, right, mark. */
export const COMPARE_COLUMNS = 'grid-cols-[8rem_minmax(0,1fr)_minmax(0,1fr)_2rem] xl:grid-cols-[11rem_minmax(0,1fr)_minmax(0,1fr)_2rem]';

/** Rows compared by name: the left value, the right value, and a mark where they differ. */
export function DiffTable({ rows, label, onlyDifferences }: { rows: DiffRow[]; label: string; onlyDifferences: boolean }) {
  const shown = onlyDifferences ? rows.filter((r) => r.change !== 'same') : rows;
  if (!rows.length) return <p className="px-3 py-2 text-xs text-faint">Neither side has any.</p>;
  if (!shown.length) return <p className="px-3 py-2 text-xs text-faint">No difference ({rows.length} the same).</p>;
  return (
    <table aria-label={label} className="w-full table-fixed font-mono text-xs">
      <colgroup>
        <col className="w-32 xl:w-44" />
        <col />
        <col />
        <col className="w-8" />
      </colgroup>
      <thead className="sr-only">
        <tr>
          <th scope="col">Name</th>
          <th scope="col">Left</th>
          <th scope="col">Right</th>
          <th scope="col">Difference</th>
        </tr>
      </thead>
      <tbody>
        {shown.map((r, i) => {
          const mark = MARK[r.change];
          return (
            <tr key={`${i}-${r.name}`} className={`border-b border-line/50 last:border-b-0 ${mark.row}`}>
              <th scope="row" className="truncate px-3 py-1 text-left align-top font-normal text-muted" title={r.name}>
                {r.name}
              </th>
              <td className="px-3 py-1 align-top break-all">{r.left ?? <span className="text-faint">—</span>}</td>
              <td className="px-3 py-1 align-top break-all">{r.right ?? <span className="text-faint">—</span>}</td>
              <td className={`py-1 pr-2 text-center align-top font-semibold ${mark.text}`} title={mark.label}>
                <span aria-hidden>{mark.sign}</span>
                <span className="sr-only">{mark.label}</span>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}
